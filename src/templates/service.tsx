import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { ServiceView } from "../components/views/service-view";
import type { ServiceContent } from "../types/content";
import { useSiteMetadata } from "../hooks/use-site-metadata";
import { imageOf } from "../utils/images";
import { breadcrumbJsonLd, serviceJsonLd } from "../utils/structured-data";

type Data = Queries.ServicePageQuery;

function toContent(service: NonNullable<Data["servicesYaml"]>): ServiceContent {
  const where = `data/services/${service.slug}.yaml`;
  return {
    slug: service.slug,
    title: service.title,
    banner: { image: imageOf(service.banner, `${where} banner`), alt: service.bannerAlt },
    intro: service.intro,
    sections: service.sections ?? [],
    gallery: (service.gallery ?? []).map((item) => ({
      caption: item.caption,
      alt: item.alt,
      image: imageOf(item.image, `data/approvals/${item.key}.yaml image`),
    })),
  };
}

export default function ServicePage({ data }: PageProps<Data>) {
  if (!data.servicesYaml || !data.siteYaml) return null;
  return (
    <Layout>
      <ServiceView service={toContent(data.servicesYaml)} backLabel={data.siteYaml.labels.back} />
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Data>) {
  const { siteUrl } = useSiteMetadata();
  const service = data.servicesYaml;
  if (!service) return null;
  const pathname = location.pathname;
  // The trail uses the menu's own labels for Home and Services.
  const label = (to: string) => data.navigationYaml?.main.find((item) => item.to === to)?.label ?? to;
  const structuredData = [
    serviceJsonLd({ siteUrl, name: service.title, description: service.description, pathname }),
    breadcrumbJsonLd(siteUrl, [
      { name: label("/home"), pathname: "/home" },
      { name: label("/services"), pathname: "/services" },
      { name: service.title, pathname },
    ]),
  ];
  return (
    <Seo
      title={service.metaTitle}
      description={service.description}
      pathname={pathname}
      structuredData={structuredData}
    />
  );
}

export const query = graphql`
  query ServicePage($slug: String!) {
    servicesYaml(slug: { eq: $slug }) {
      slug
      title
      metaTitle
      description
      banner {
        ...FullWidthImage
      }
      bannerAlt
      intro
      sections {
        heading
        paragraphs
        items
        columns
        subsections {
          heading
          paragraphs
          items
        }
      }
      gallery {
        key
        caption
        alt
        image {
          childImageSharp {
            gatsbyImageData(layout: CONSTRAINED, width: 200, placeholder: NONE)
          }
        }
      }
    }
    siteYaml {
      labels {
        back
      }
    }
    navigationYaml {
      main {
        label
        to
      }
    }
  }
`;
