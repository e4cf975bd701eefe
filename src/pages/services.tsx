import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { ServicesIndexView } from "../components/views/services-index-view";
import { imageOf } from "../utils/images";
import { servicePath } from "../utils/routes";

type Data = Queries.ServicesIndexPageQuery;

export default function ServicesPage({ data }: PageProps<Data>) {
  const page = data.servicesPageYaml;
  if (!page) return null;
  // The grid follows each service's `order`; the dropdown has its own order (navigation.yaml).
  const cards = data.allServicesYaml.nodes.map((s) => ({
    title: s.cardTitle,
    to: servicePath(s.slug),
    image: {
      image: imageOf(s.cardImage, `data/services/${s.slug}.yaml cardImage`),
      alt: s.cardImageAlt,
    },
  }));
  return (
    <Layout>
      <ServicesIndexView
        {...page}
        banner={{ image: imageOf(page.banner, "data/services-page/services-page.yaml banner"), alt: page.bannerAlt }}
        cards={cards}
      />
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Data>) {
  const page = data.servicesPageYaml;
  return page && <Seo title={page.title} description={page.description} pathname={location.pathname} />;
}

export const query = graphql`
  query ServicesIndexPage {
    servicesPageYaml {
      title
      description
      heading
      banner {
        ...FullWidthImage
      }
      bannerAlt
      intro
      offeringsHeading
      columns {
        items
      }
      gridHeading
    }
    allServicesYaml(sort: { order: ASC }) {
      nodes {
        slug
        cardTitle
        cardImage {
          childImageSharp {
            gatsbyImageData(layout: CONSTRAINED, width: 480, aspectRatio: 1.5, sizes: "(min-width: 769px) 22rem, 100vw")
          }
        }
        cardImageAlt
      }
    }
  }
`;
