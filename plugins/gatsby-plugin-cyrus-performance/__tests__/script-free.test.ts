/**
 * @jest-environment node
 *
 * What a page without behaviour leaves out of the components Gatsby 5.16.1 puts around its body
 * (static-entry.js: the head's links and scripts, the page-path script and the scripts slice after
 * the body), and what it keeps; and the check that Gatsby still writes its scripts there.
 */
import { createElement, Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { checkGatsbyScripts, withoutScripts } from "../src/script-free";

/** Gatsby's `ServerSliceRenderer`: only its props matter here. */
const SliceRenderer = ({ sliceId }: { sliceId: string }) => createElement("slice-start", { id: `${sliceId}-1` });

const head: ReactNode[] = [
  createElement("meta", { key: "g", name: "generator", content: "Gatsby 5.16.1" }),
  createElement("style", {
    key: "css",
    "data-identity": "gatsby-global-css",
    dangerouslySetInnerHTML: { __html: "a{}" },
  }),
  createElement("link", { key: "c", rel: "canonical", href: "https://www.example.com/aboutus" }),
  createElement("link", { key: "m", rel: "manifest", href: "/manifest.webmanifest" }),
  createElement("link", { key: "i", rel: "icon", href: "/favicon-32x32.png" }),
  createElement("script", { key: "ld", type: "application/ld+json", dangerouslySetInnerHTML: { __html: "{}" } }),
  createElement("script", { key: "sr", type: "speculationrules", dangerouslySetInnerHTML: { __html: "{}" } }),
  // What Gatsby adds for the app chunk's preload and prefetch comments, and other fetches of its own.
  createElement("link", { key: "p1", as: "script", rel: "preload", href: "/app-3.js" }),
  createElement("link", { key: "p2", as: "script", rel: "prefetch", href: "/component---src-pages-home-tsx-5.js" }),
  createElement("link", {
    key: "p3",
    as: "fetch",
    rel: "preload",
    href: "/page-data/aboutus/page-data.json",
    crossOrigin: "anonymous",
  }),
  createElement("link", {
    key: "p4",
    as: "fetch",
    rel: "preload",
    href: "/page-data/sq/d/123.json",
    crossOrigin: "anonymous",
  }),
  createElement("link", { key: "p5", rel: "prefetch", href: "/page-data/app-data.json" }),
  createElement("link", { key: "p6", rel: "modulepreload", href: "/island.mjs" }),
  createElement("script", { key: "s", src: "/other.js" }),
];
const postBody: ReactNode[] = [
  createElement("script", {
    key: "script-loader",
    id: "gatsby-script-loader",
    dangerouslySetInnerHTML: { __html: 'window.pagePath="/aboutus";' },
  }),
  createElement(SliceRenderer, { key: "slice", sliceId: "_gatsby-scripts" }),
];

const html = (nodes: readonly ReactNode[]) => renderToStaticMarkup(createElement(Fragment, null, ...nodes));

test("a page without behaviour keeps its head's meta, style, canonical, icons, JSON-LD and speculation rules, and nothing else", () => {
  const result = withoutScripts(head, postBody);
  expect(html(result.head)).toBe(html(head.slice(0, 7)));
  expect(result.postBody).toEqual([]);
});

test("nothing it keeps names a script or Gatsby's data", () => {
  const kept = html([...withoutScripts(head, postBody).head, ...withoutScripts(head, postBody).postBody]);
  expect(kept).not.toMatch(/\.m?js"|page-data|app-data|<script(?! type="(application\/ld\+json|speculationrules)")/);
});

test("Gatsby's scripts where 5.16.1 writes them pass the check", () => {
  expect(() => checkGatsbyScripts(postBody, "/aboutus")).not.toThrow();
});

test.each([
  ["the scripts slice", [postBody[0]], /\/aboutus hold no <ServerSliceRenderer sliceId="_gatsby-scripts">\./],
  ["the page-path script", [postBody[1]], /\/aboutus hold no <script id="gatsby-script-loader">/],
  ["both", [], /no <ServerSliceRenderer sliceId="_gatsby-scripts"> and no <script id="gatsby-script-loader">/],
])("without %s, the build stops, naming the internal and the page", (_, components, message) => {
  expect(() => checkGatsbyScripts(components as ReactNode[], "/aboutus")).toThrow(
    /^gatsby-plugin-cyrus-performance: Gatsby's scripts after the body, in `onPreRenderHTML` \(checked on Gatsby 5\.16\.1\) has changed/,
  );
  expect(() => checkGatsbyScripts(components as ReactNode[], "/aboutus")).toThrow(message);
});
