import { graphql, type HeadProps, type PageProps } from "gatsby";
import { useSiteMetadata } from "../hooks/use-site-metadata";

type Data = Queries.RootRedirectQuery;

const target = "/home";

/**
 * "/" lands on /home everywhere: in the browser by its meta refresh (the page ships no script: it
 * needs none), with a plain link for a browser that does not follow it, and on hosts that honour
 * createRedirect (gatsby-node).
 */
export default function RootRedirect({ data }: PageProps<Data>) {
  return (
    <main>
      <p>
        <a href={target}>{data.siteYaml?.labels.redirectNotice}</a>
      </p>
    </main>
  );
}

export function Head({ data }: HeadProps<Data>) {
  const { siteUrl, siteName } = useSiteMetadata();
  return (
    <>
      <html lang="en" />
      <title>{siteName}</title>
      <meta httpEquiv="refresh" content={`0; url=${target}`} />
      <link rel="canonical" href={`${siteUrl}${target}`} />
      <meta name="description" content={data.siteYaml?.labels.redirectNotice ?? ""} />
    </>
  );
}

export const query = graphql`
  query RootRedirect {
    siteYaml {
      labels {
        redirectNotice
      }
    }
  }
`;
