import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { ActivitiesView } from "../components/views/activities-view";
import { imageOf } from "../utils/images";

type Data = Queries.ActivitiesPageQuery;

export default function ActivitiesPage({ data }: PageProps<Data>) {
  const page = data.activitiesYaml;
  if (!page) return null;
  return (
    <Layout>
      <ActivitiesView
        heading={page.heading}
        intro={page.intro}
        banner={{ image: imageOf(page.banner, "data/activities/activities.yaml banner"), alt: page.bannerAlt }}
        sections={page.sections.map((s, i) => ({
          heading: s.heading,
          items: s.items,
          image: { image: imageOf(s.image, `data/activities/activities.yaml sections[${i + 1}].image`), alt: s.alt },
        }))}
      />
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Data>) {
  const page = data.activitiesYaml;
  return page && <Seo title={page.title} description={page.description} pathname={location.pathname} />;
}

export const query = graphql`
  query ActivitiesPage {
    activitiesYaml {
      title
      description
      heading
      banner {
        ...FullWidthImage
      }
      bannerAlt
      intro
      sections {
        heading
        items
        image {
          childImageSharp {
            gatsbyImageData(layout: CONSTRAINED, width: 560, sizes: "(min-width: 769px) 28rem, 100vw")
          }
        }
        alt
      }
    }
  }
`;
