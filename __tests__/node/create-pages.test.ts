/**
 * @jest-environment node
 */
import fs from "node:fs";
import {
  addedPageTemplate,
  builds,
  createPages,
  enquiryResultTemplate,
  serviceTemplate,
} from "../../src/node/create-pages";
import { content } from "../support/content";

const { services } = content;

function gatsbyArgs(result: unknown) {
  const actions = { createPage: jest.fn(), createRedirect: jest.fn() };
  const reporter = { panicOnBuild: jest.fn() };
  const graphql = jest.fn().mockResolvedValue(result);
  return { args: { actions, reporter, graphql } as never, actions, reporter, graphql };
}

test("createPages makes one page per service at /services/<slug>, passing only the slug", async () => {
  const { args, actions } = gatsbyArgs({
    data: { allServicesYaml: { nodes: services.map(({ slug }) => ({ slug })) }, allPagesYaml: { nodes: [] } },
  });
  await (createPages as (a: unknown) => Promise<void>)(args);
  const pages = actions.createPage.mock.calls.map(([page]) => page).filter((p) => p.component === serviceTemplate);
  expect(pages.map((p) => p.path)).toEqual(services.map((s) => `/services/${s.slug}`));
  for (const page of pages) {
    expect(page.component).toBe(serviceTemplate);
    expect(page.context).toEqual({ slug: page.path.replace("/services/", "") });
  }
  expect(fs.existsSync(serviceTemplate)).toBe(true);
});

test("createPages makes the three pages a form posted without JavaScript lands on, passing only the outcome", async () => {
  const { args, actions } = gatsbyArgs({ data: { allServicesYaml: { nodes: [] }, allPagesYaml: { nodes: [] } } });
  await (createPages as (a: unknown) => Promise<void>)(args);
  expect(actions.createPage.mock.calls.map(([page]) => page)).toEqual([
    { path: "/contact/sent", component: enquiryResultTemplate, context: { outcome: "sent" } },
    { path: "/contact/error", component: enquiryResultTemplate, context: { outcome: "error" } },
    { path: "/contact/incomplete", component: enquiryResultTemplate, context: { outcome: "incomplete" } },
  ]);
  expect(fs.existsSync(enquiryResultTemplate)).toBe(true);
});

test("createPages redirects / to /home for hosts that honour redirects, before the page at / they would serve", async () => {
  const { args, actions } = gatsbyArgs({ data: { allServicesYaml: { nodes: [] }, allPagesYaml: { nodes: [] } } });
  await (createPages as (a: unknown) => Promise<void>)(args);
  expect(actions.createRedirect).toHaveBeenCalledWith(
    expect.objectContaining({ fromPath: "/", toPath: "/home", isPermanent: true, force: true }),
  );
});

test("createPages makes one page per added page at /<slug>, passing only the slug; production builds leave out those still being written", async () => {
  const nodes = [
    { slug: "careers", inProgress: null },
    { slug: "quality-policy", inProgress: true },
  ];
  const { args, actions } = gatsbyArgs({ data: { allServicesYaml: { nodes: [] }, allPagesYaml: { nodes } } });
  const env = process.env.NODE_ENV;
  try {
    process.env.NODE_ENV = "production";
    await (createPages as (a: unknown) => Promise<void>)(args);
  } finally {
    process.env.NODE_ENV = env;
  }
  const pages = actions.createPage.mock.calls.map(([page]) => page).filter((p) => p.component === addedPageTemplate);
  expect(pages).toEqual([{ path: "/careers", component: addedPageTemplate, context: { slug: "careers" } }]);
  expect(fs.existsSync(addedPageTemplate)).toBe(true);
  // gatsby develop builds both: the editor sees the page while writing it.
  expect(nodes.map((page) => builds(page, "development"))).toEqual([true, true]);
  expect(nodes.map((page) => builds(page, "production"))).toEqual([true, false]);
});

test("a failing query stops the build", async () => {
  const { args, actions, reporter } = gatsbyArgs({ errors: [new Error("Cannot query field")] });
  await (createPages as (a: unknown) => Promise<void>)(args);
  expect(reporter.panicOnBuild).toHaveBeenCalledWith(expect.stringContaining("services"), expect.anything());
  expect(actions.createPage).not.toHaveBeenCalled();
});
