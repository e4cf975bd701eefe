import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { HomeView } from "../components/views/home-view";
import { imageOf } from "../utils/images";

type Data = Queries.HomePageQuery;

export default function HomePage({ data }: PageProps<Data>) {
  const { homeYaml: home, siteYaml: site } = data;
  if (!home || !site) return null;
  return (
    <Layout>
      <HomeView
        heading={home.heading}
        carouselLabel={home.carouselLabel}
        carouselLabels={{
          pause: site.labels.carouselPause,
          play: site.labels.carouselPlay,
          slideOf: site.labels.slideOf,
        }}
        slides={home.slides.map((s, i) => ({
          image: imageOf(s.image, `data/home/home.yaml slides[${i + 1}]`),
          alt: s.alt,
        }))}
        intro={home.intro}
        founder={home.founder}
      />
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Data>) {
  const home = data.homeYaml;
  return home && <Seo title={home.title} description={home.description} pathname={location.pathname} />;
}

export const query = graphql`
  query HomePage {
    homeYaml {
      title
      description
      heading
      carouselLabel
      slides {
        image {
          ...FullWidthImage
        }
        alt
      }
      intro {
        heading
        paragraphs
      }
      founder {
        heading
        paragraphs
        industriesIntro
        industries
        closing
        signature
      }
    }
    siteYaml {
      labels {
        carouselPause
        carouselPlay
        slideOf
      }
    }
  }
`;
