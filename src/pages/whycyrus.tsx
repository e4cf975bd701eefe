import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { WhyCyrusView } from "../components/views/why-cyrus-view";

type Data = Queries.WhyCyrusPageQuery;

export default function WhyCyrusPage({ data }: PageProps<Data>) {
  const page = data.whyCyrusYaml;
  if (!page) return null;
  return (
    <Layout>
      <WhyCyrusView heading={page.heading} intro={page.intro} cards={page.cards} />
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Data>) {
  const page = data.whyCyrusYaml;
  return page && <Seo title={page.title} description={page.description} pathname={location.pathname} />;
}

export const query = graphql`
  query WhyCyrusPage {
    whyCyrusYaml {
      title
      description
      heading
      intro
      cards {
        title
        description
      }
    }
  }
`;
