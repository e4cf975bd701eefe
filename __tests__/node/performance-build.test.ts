/**
 * @jest-environment node
 */
import vm from "node:vm";
import { deferFirstScripts, loaderScript } from "../../src/node/scripts-after-paint";
import { onCreateWebpackConfig } from "../../src/node/webpack";

const slice = (inner: string) =>
  `<html><body><div id="___gatsby"></div><!-- slice-start id="_gatsby-scripts-1" -->` +
  `<script>window.___webpackCompilationHash="abc";</script>${inner}<!-- slice-end id="_gatsby-scripts-1" --></body></html>`;
const gatsbyScripts =
  '<script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>';

test("the first scripts are replaced by one loader that adds them in order, and nothing else changes", () => {
  const html = deferFirstScripts(slice(gatsbyScripts));
  expect(html).not.toBeNull();
  expect(html).not.toContain("<script src=");
  expect(html).toContain('window.___webpackCompilationHash="abc"');
  expect(html).toContain(loaderScript(["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"]));
  expect(html!.indexOf("gatsby-scripts-after-paint")).toBeLessThan(html!.indexOf('<!-- slice-end id="_gatsby-scripts-1" -->'));
});

test("a page already rewritten, or without Gatsby's scripts slice, is left alone", () => {
  const once = deferFirstScripts(slice(gatsbyScripts))!;
  expect(deferFirstScripts(once)).toBeNull();
  expect(deferFirstScripts(`<html><body>${gatsbyScripts}</body></html>`)).toBeNull();
});

test("the loader adds each script once: after the first frame, or at the load event if that comes first", () => {
  const added: Array<{ src: string; async: boolean }> = [];
  const frames: Array<() => void> = [];
  const timers: Array<() => void> = [];
  const listeners: Record<string, () => void> = {};
  const window = {
    requestAnimationFrame: (f: () => void) => frames.push(f),
    addEventListener: (name: string, f: () => void) => (listeners[name] = f),
  };
  const document = {
    createElement: () => ({ src: "", async: false }),
    body: { appendChild: (e: { src: string; async: boolean }) => added.push(e) },
  };
  const code = loaderScript(["/a.js", "/b.js"]).replace(/^<script[^>]*>|<\/script>$/g, "");
  vm.runInNewContext(code, { window, document, requestAnimationFrame: window.requestAnimationFrame, setTimeout: (f: () => void) => timers.push(f) });
  expect(added).toHaveLength(0); // nothing before the first frame
  frames.forEach((f) => f());
  timers.forEach((f) => f());
  expect(added).toEqual([{ src: "/a.js", async: true }, { src: "/b.js", async: true }]);
  listeners.load?.();
  expect(added).toHaveLength(2);
});

test("the loader cannot be broken out of by a script address", () => {
  expect(loaderScript(["/x.js</script><script>alert(1)//"])).not.toMatch(/<\/script>.*<\/script>/s);
});

test("production browser bundles get no source maps and the small server renderer; other stages are untouched", () => {
  const setWebpackConfig = jest.fn();
  const normalModuleReplacement = jest.fn((pattern: RegExp, file: string) => ({ pattern, file }));
  const call = (stage: string) =>
    (onCreateWebpackConfig as (args: unknown) => void)({ stage, actions: { setWebpackConfig }, plugins: { normalModuleReplacement } });
  call("build-html");
  call("develop");
  expect(setWebpackConfig).not.toHaveBeenCalled();
  call("build-javascript");
  const config = setWebpackConfig.mock.calls[0]![0];
  expect(config.devtool).toBe(false);
  const [pattern, file] = normalModuleReplacement.mock.calls[0]!;
  expect(pattern.test("react-dom/server")).toBe(true);
  expect(pattern.test("react-dom/server.node")).toBe(false);
  expect(file).toMatch(/react-dom-server-legacy\.browser\.production\.min\.js$/);
});
