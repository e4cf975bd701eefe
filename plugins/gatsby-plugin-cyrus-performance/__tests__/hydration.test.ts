/**
 * @jest-environment node
 *
 * What hydration relies on, checked after the build: pages hold the focus wrapper; Gatsby's app
 * calls replaceHydrateFunction. Either one missing stops the build.
 */
import { checkHydrationInternals } from "../src/hydration-check";
import { builtPages } from "../src/pages";
import { APP, type Site, gatsbyPage, makeSite, stats } from "./fixture";

describe("the pages and Gatsby's app", () => {
  let site: Site;
  const check = () => checkHydrationInternals(site.publicDir, builtPages(site.publicDir, site.siteStaticDir), stats);
  beforeEach(() => {
    site = makeSite();
  });
  afterEach(() => site.cleanUp());

  test("as Gatsby 5.16.1 builds them pass", () => {
    expect(check).not.toThrow();
  });

  test("a page without the gatsby-focus-wrapper element stops the build, naming the page", () => {
    site.write("contact/index.html", gatsbyPage("Contact").replace('id="gatsby-focus-wrapper"', 'id="focus"'));
    expect(check).toThrow(
      /The `gatsby-focus-wrapper` element \(checked on Gatsby 5\.16\.1\) has changed: public\/contact\/index\.html has no element with id="gatsby-focus-wrapper"/,
    );
  });

  test("an app that never calls replaceHydrateFunction stops the build", () => {
    site.write("app-3.js", APP.replace('"replaceHydrateFunction"', '"replaceRenderer"'));
    expect(check).toThrow(
      /The `replaceHydrateFunction` browser API .*has changed: the app chunk group \(webpack-runtime-1\.js, framework-2\.js, app-3\.js\) never calls/,
    );
  });
});
