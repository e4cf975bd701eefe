import { graphql, useStaticQuery } from "gatsby";

export interface SiteMetadata {
  siteUrl: string;
  siteName: string;
}

export function useSiteMetadata(): SiteMetadata {
  const data = useStaticQuery<Queries.SiteMetadataQuery>(graphql`
    query SiteMetadata {
      site {
        siteMetadata {
          siteUrl
        }
      }
      siteYaml {
        name
      }
    }
  `);
  return { siteUrl: data.site?.siteMetadata?.siteUrl ?? "", siteName: data.siteYaml?.name ?? "" };
}
