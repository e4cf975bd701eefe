import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { ContactView } from "../components/views/contact-view";
import { imageOf } from "../utils/images";

type Data = Queries.ContactPageQuery;

export default function ContactPage({ data }: PageProps<Data>) {
  const { contactYaml: page, siteYaml: site } = data;
  if (!page || !site) return null;
  return (
    <Layout>
      <ContactView
        {...page}
        banner={{ image: imageOf(page.banner, "data/contact/contact.yaml banner"), alt: page.bannerAlt }}
        companyName={site.legalName}
        address={site.address}
        mobile={site.mobile}
        telephone={site.telephone}
        email={site.email}
        website={site.website}
        labels={site.labels}
        region={{
          ...page.region,
          slides: page.region.slides.map((s, i) => ({
            image: imageOf(s.image, `data/contact/contact.yaml region.slides[${i + 1}]`),
            alt: s.alt,
          })),
        }}
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
  const page = data.contactYaml;
  return page && <Seo title={page.title} description={page.description} pathname={location.pathname} />;
}

export const query = graphql`
  query ContactPage {
    contactYaml {
      title
      description
      heading
      banner {
        ...FullWidthImage
      }
      bannerAlt
      slogan
      detailsHeading
      formHeading
      formNotice
      form {
        nameLabel
        phoneLabel
        phoneHint
        emailLabel
        messageLabel
        honeypotLabel
        submit
        sending
        requiredMessage
        successMessage
        errorMessage
      }
      map {
        title
        src
        linkLabel
        link
      }
      region {
        heading
        carouselLabel
        slides {
          image {
            childImageSharp {
              gatsbyImageData(layout: FULL_WIDTH, sizes: "(min-width: 1152px) 72rem, 100vw")
            }
          }
          alt
        }
      }
    }
    siteYaml {
      ...ContactDetailsAndCarousel
    }
  }
`;
