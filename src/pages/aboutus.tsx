import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { AboutView } from "../components/views/about-view";
import { imageOf } from "../utils/images";

type Data = Queries.AboutPageQuery;

export default function AboutPage({ data }: PageProps<Data>) {
  const about = data.aboutYaml;
  if (!about) return null;
  return (
    <Layout>
      <AboutView
        {...about}
        banner={{ image: imageOf(about.banner, "data/about/about.yaml banner"), alt: about.bannerAlt }}
      />
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Data>) {
  const about = data.aboutYaml;
  return about && <Seo title={about.title} description={about.description} pathname={location.pathname} />;
}

export const query = graphql`
  query AboutPage {
    aboutYaml {
      title
      description
      heading
      banner {
        ...FullWidthImage
      }
      bannerAlt
      intro
      mission {
        heading
        text
      }
      vision {
        heading
        text
      }
      overview {
        heading
        paragraphs
        itemsHeading
        items
      }
    }
  }
`;
