import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { NotFoundView } from "../components/views/not-found-view";

type Data = Queries.NotFoundPageQuery;

export default function NotFoundPage({ data }: PageProps<Data>) {
  const page = data.notFoundYaml;
  if (!page) return null;
  return (
    <Layout>
      <NotFoundView heading={page.heading} text={page.text} links={page.links} />
    </Layout>
  );
}

export function Head({ data }: HeadProps<Data>) {
  const page = data.notFoundYaml;
  return page && <Seo title={page.title} description={page.description} pathname="/404" noindex />;
}

export const query = graphql`
  query NotFoundPage {
    notFoundYaml {
      title
      description
      heading
      text
      links {
        label
        to
      }
    }
  }
`;
