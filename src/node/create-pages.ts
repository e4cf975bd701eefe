import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { FORM_OUTCOMES, formResultPath } from "../enquiry-contract/form-results";
import { servicePath } from "../utils/routes";
import { addedPagePath } from "./content/site-paths";
import { createRootRedirect } from "./root-redirect";

// Gatsby runs from the site root; gatsby-node is bundled, so __dirname would point into .cache.
export const serviceTemplate = path.resolve("src/templates/service.tsx");
export const enquiryResultTemplate = path.resolve("src/templates/enquiry-result.tsx");
export const addedPageTemplate = path.resolve("src/templates/added-page.tsx");

interface ServiceSlugsResult {
  allServicesYaml: { nodes: ReadonlyArray<{ slug: string }> };
  allPagesYaml: { nodes: ReadonlyArray<{ slug: string; inProgress?: boolean | null }> };
}

/**
 * A page still being written (`inProgress: true`) is built by `gatsby develop`, where its editor and
 * the studio's preview see it, never by a production build (`gatsby build`, a release).
 */
export const builds = (page: { inProgress?: boolean | null }, env = process.env.NODE_ENV): boolean =>
  env !== "production" || !page.inProgress;

/**
 * One page per service, data/services/<slug>.yaml (the template queries the rest by slug), one per
 * added page, data/pages/<slug>.yaml at /<slug>, and the three pages a form posted without JavaScript
 * lands on (data/enquiry-results/enquiry-results.yaml).
 */
export const createPages: GatsbyNode["createPages"] = async ({ graphql, actions, reporter }) => {
  const result = await graphql<ServiceSlugsResult>(`
    query ServiceSlugs {
      allServicesYaml {
        nodes {
          slug
        }
      }
      allPagesYaml {
        nodes {
          slug
          inProgress
        }
      }
    }
  `);
  if (result.errors || !result.data) {
    reporter.panicOnBuild("Could not query the services in data/services/ and the pages in data/pages/", result.errors);
    return;
  }
  for (const { slug } of result.data.allServicesYaml.nodes) {
    actions.createPage({ path: servicePath(slug), component: serviceTemplate, context: { slug } });
  }
  for (const page of result.data.allPagesYaml.nodes) {
    if (!builds(page)) continue;
    actions.createPage({ path: addedPagePath(page.slug), component: addedPageTemplate, context: { slug: page.slug } });
  }
  for (const outcome of FORM_OUTCOMES) {
    actions.createPage({ path: formResultPath(outcome), component: enquiryResultTemplate, context: { outcome } });
  }
  // For hosts that honour Gatsby redirects; src/pages/index.tsx covers the others.
  createRootRedirect(actions);
};
