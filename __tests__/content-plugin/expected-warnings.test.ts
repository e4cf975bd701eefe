/**
 * @jest-environment node
 */
import {
  explainExpectedWarnings,
  NO_NODES_EXPLAINED,
  PG_NATIVE_EXPLAINED,
  ADDED_PAGE_TEMPLATE_EXPLAINED,
} from "../../plugins/gatsby-plugin-cyrus-content/src/expected-warnings";

/** A reporter that records what it printed, in order. */
function recorder() {
  const printed: string[] = [];
  return {
    printed,
    reporter: {
      warn: (text: string) => printed.push(`warn ${text}`),
      info: (text: string) => printed.push(`info ${text}`),
    },
  };
}

test("Gatsby's warning that the plugin generated no nodes is followed by the line saying it is expected", () => {
  const { printed, reporter } = recorder();
  explainExpectedWarnings(reporter);
  const warning =
    "The gatsby-plugin-cyrus-content plugin has generated no Gatsby nodes. Do you need it? This could also suggest the plugin is misconfigured.";
  reporter.warn(warning);
  expect(printed).toEqual([`warn ${warning}`, `info ${NO_NODES_EXPLAINED}`]);
});

test("webpack's warning that the enquiry Function's bundle cannot resolve pg-native is followed by the line saying it is expected", () => {
  const { printed, reporter } = recorder();
  explainExpectedWarnings(reporter);
  // As gatsby build printed it (reportWebpackWarnings of Gatsby's Functions).
  const warning =
    "../site/node_modules/pg/lib/native/client.js Module not found: Can't resolve 'pg-native' in '/site/node_modules/pg/lib/native'";
  reporter.warn(warning);
  expect(printed).toEqual([`warn ${warning}`, `info ${PG_NATIVE_EXPLAINED}`]);
});

test("Gatsby's warning that the added pages' template is not used is followed by the line saying why", () => {
  const { printed, reporter } = recorder();
  explainExpectedWarnings(reporter);
  const warning =
    'The GraphQL query in the non-page component "/srv/cyrus/build/src/templates/added-page.tsx" will not be run.';
  reporter.warn(warning);
  expect(printed).toEqual([`warn ${warning}`, `info ${ADDED_PAGE_TEMPLATE_EXPLAINED}`]);
  // Any other template's unused query is a mistake: printed as it is.
  const other =
    'The GraphQL query in the non-page component "/srv/cyrus/build/src/templates/service.tsx" will not be run.';
  reporter.warn(other);
  expect(printed.at(-1)).toBe(`warn ${other}`);
});

test("other warnings are printed as they are, and setting up twice explains once", () => {
  const { printed, reporter } = recorder();
  explainExpectedWarnings(reporter);
  explainExpectedWarnings(reporter);
  reporter.warn("The gatsby-plugin-other plugin has generated no Gatsby nodes.");
  reporter.warn("The gatsby-plugin-cyrus-content plugin has generated no Gatsby nodes.");
  expect(printed).toEqual([
    "warn The gatsby-plugin-other plugin has generated no Gatsby nodes.",
    "warn The gatsby-plugin-cyrus-content plugin has generated no Gatsby nodes.",
    `info ${NO_NODES_EXPLAINED}`,
  ]);
});
