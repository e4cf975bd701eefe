import { graphql, useStaticQuery } from "gatsby";
import type { OrganizationFacts } from "../utils/structured-data";
import { imageOf, imageSrc } from "../utils/images";

export interface SiteMetadata {
  siteUrl: string;
  siteName: string;
  organization: OrganizationFacts;
  shareImage: { url: string; width: number; height: number; alt: string };
}

/** What every page's head needs: the canonical origin, the company for JSON-LD, the share image. */
export function useSiteMetadata(): SiteMetadata {
  const { site, siteYaml } = useStaticQuery<Queries.SiteMetadataQuery>(graphql`
    query SiteMetadata {
      site {
        siteMetadata {
          siteUrl
        }
      }
      siteYaml {
        name
        legalName
        description
        foundingYear
        mobile
        telephone
        email
        address {
          ...PostalAddress
        }
        social {
          url
        }
        logo {
          childImageSharp {
            gatsbyImageData(layout: FIXED, width: 512, height: 512, formats: [PNG], placeholder: NONE)
          }
        }
        shareImage {
          childImageSharp {
            gatsbyImageData(layout: FIXED, width: 1200, height: 630, formats: [JPG], placeholder: NONE, quality: 80)
          }
        }
        shareImageAlt
      }
    }
  `);
  if (!siteYaml || !site?.siteMetadata?.siteUrl)
    throw new Error("data/site/site.yaml or siteMetadata.siteUrl is missing");
  const siteUrl = site.siteMetadata.siteUrl;
  const share = imageOf(siteYaml.shareImage, "data/site/site.yaml shareImage");
  const absolute = (path: string | undefined) => `${siteUrl}${path ?? ""}`;
  return {
    siteUrl,
    siteName: siteYaml.name,
    organization: {
      siteUrl,
      name: siteYaml.name,
      legalName: siteYaml.legalName,
      description: siteYaml.description,
      logoUrl: absolute(imageSrc(imageOf(siteYaml.logo, "data/site/site.yaml logo"))),
      foundingYear: siteYaml.foundingYear,
      address: siteYaml.address,
      telephone: siteYaml.telephone,
      mobile: siteYaml.mobile,
      email: siteYaml.email,
      sameAs: siteYaml.social.map((s) => s.url),
    },
    shareImage: {
      url: absolute(imageSrc(share)),
      width: share.width,
      height: share.height,
      alt: siteYaml.shareImageAlt,
    },
  };
}
