import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { pageFaqJsonLd } from "../components/sections/questions-json-ld";
import { AddedPageView } from "../components/views/added-page-view";
import { useSiteMetadata } from "../hooks/use-site-metadata";
import { toSections } from "../utils/added-page-sections";
import { imageOf } from "../utils/images";
import { breadcrumbJsonLd, webPageJsonLd } from "../utils/structured-data";

type Data = Queries.AddedPageQuery;

export default function AddedPage({ data }: PageProps<Data>) {
  const { pagesYaml: page, siteYaml: site } = data;
  if (!page || !site) return null;
  const where = `data/pages/${page.slug}.yaml`;
  return (
    <Layout>
      <AddedPageView
        title={page.title}
        banner={page.banner ? { image: imageOf(page.banner, `${where} banner`), alt: page.bannerAlt ?? "" } : null}
        sections={toSections(page.sections, where)}
        contact={{ ...site, companyName: site.legalName }}
        carouselLabels={{
          pause: site.labels.carouselPause,
          play: site.labels.carouselPlay,
          slideOf: site.labels.slideOf,
        }}
      />
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Data>) {
  const { siteUrl } = useSiteMetadata();
  const page = data.pagesYaml;
  if (!page) return null;
  const pathname = location.pathname;
  const home = data.navigationYaml?.main.find((item) => item.to === "/home")?.label ?? "Home";
  const faq = pageFaqJsonLd(toSections(page.sections, `data/pages/${page.slug}.yaml`));
  const structuredData = [
    webPageJsonLd({ siteUrl, name: page.title, description: page.description, pathname }),
    breadcrumbJsonLd(siteUrl, [
      { name: home, pathname: "/home" },
      { name: page.title, pathname },
    ]),
    ...(faq ? [faq] : []),
  ];
  return <Seo title={page.title} description={page.description} pathname={pathname} structuredData={structuredData} />;
}

export const query = graphql`
  query AddedPage($slug: String!) {
    pagesYaml(slug: { eq: $slug }) {
      slug
      title
      description
      banner {
        ...FullWidthImage
      }
      bannerAlt
      sections {
        ... on PageTextSection {
          type
          body
        }
        ... on PagePictureWithTextSection {
          type
          image {
            childImageSharp {
              gatsbyImageData(layout: CONSTRAINED, width: 720)
            }
          }
          alt
          caption
          side
          heading
          body
        }
        ... on PageCardsSection {
          type
          heading
          cards {
            title
            text
            link
            linkLabel
            image {
              childImageSharp {
                # Half the content width (72rem): the widest a card gets, two to a row.
                gatsbyImageData(layout: CONSTRAINED, width: 576, aspectRatio: 1.5)
              }
            }
            imageAlt
          }
        }
        ... on PageCallToActionSection {
          type
          # Required here, optional in the other sections: one name cannot have both types in one query.
          requiredHeading: heading
          text
          buttonLabel
          buttonTo
        }
        ... on PageQuestionsSection {
          type
          heading
          items {
            question
            answer
          }
        }
        ... on PageSlideshowSection {
          type
          label
          slides {
            image {
              childImageSharp {
                gatsbyImageData(layout: FULL_WIDTH, sizes: "(min-width: 1152px) 72rem, 100vw")
              }
            }
            alt
          }
        }
        ... on PageContactStripSection {
          type
          heading
        }
      }
    }
    siteYaml {
      ...ContactDetailsAndCarousel
    }
    navigationYaml {
      main {
        label
        to
      }
    }
  }
`;
