import { graphql, type HeadProps, type PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo/seo";
import { EnquiryResultView } from "../components/views/enquiry-result-view";
import { FORM_OUTCOME_MESSAGE, formResultPath, type FormOutcome } from "../enquiry-contract/form-results";

type Data = Queries.EnquiryResultPageQuery;
interface Context {
  outcome: FormOutcome;
}

export default function EnquiryResultPage({ data, pageContext }: PageProps<Data, Context>) {
  const { enquiryResultsYaml: results, contactYaml: contact } = data;
  if (!results || !contact) return null;
  const { outcome } = pageContext;
  return (
    <Layout>
      <EnquiryResultView
        outcome={outcome}
        heading={results.heading}
        message={contact.form[FORM_OUTCOME_MESSAGE[outcome]]}
        backLink={results.backLink}
      />
    </Layout>
  );
}

export function Head({ data, pageContext }: HeadProps<Data, Context>) {
  const page = data.enquiryResultsYaml?.[pageContext.outcome];
  return (
    page && (
      <Seo title={page.title} description={page.description} pathname={formResultPath(pageContext.outcome)} noindex />
    )
  );
}

export const query = graphql`
  query EnquiryResultPage {
    enquiryResultsYaml {
      heading
      backLink
      sent {
        title
        description
      }
      error {
        title
        description
      }
      incomplete {
        title
        description
      }
    }
    contactYaml {
      form {
        successMessage
        errorMessage
        requiredMessage
      }
    }
  }
`;
