/**
 * A small public/ as Gatsby 5.16.1 builds it, for the plugin's post-build steps: pages with the
 * scripts slice, webpack's runtime, React's framework chunk, Gatsby's app and webpack.stats.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const RUNTIME =
  '!function(){"use strict";var e={},t=function(t,n){var r=n[0],o=n[1],c=n[2];for(var a in o)e[a]=o[a];if(c)c(function(t){return e[t]})},' +
  "n=self.webpackChunkcyrus_website=self.webpackChunkcyrus_website||[];n.forEach(t.bind(null,0)),n.push=t.bind(null,n.push.bind(n))}();";
const APP =
  '(self.webpackChunkcyrus_website=self.webpackChunkcyrus_website||[]).push([[524],{1:function(){const p=(0,o.N)("replaceHydrateFunction",void 0,d)[0]||d;' +
  'performance.mark&&performance.mark("onInitialClientRender")}}]);';
export const FIRST_SCRIPTS = ["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"];

export const gatsbyScriptsSlice = (
  inner = FIRST_SCRIPTS.map((src) => `<script src="${src}" async></script>`).join(""),
) =>
  `<!-- slice-start id="_gatsby-scripts-1" --><script>window.___webpackCompilationHash="abc";</script>${inner}<!-- slice-end id="_gatsby-scripts-1" -->`;

export const gatsbyPage = (title: string, slice = gatsbyScriptsSlice()) =>
  `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><div id="___gatsby">` +
  `<div style="outline:none" tabindex="-1" id="gatsby-focus-wrapper"><main><h1>${title}</h1>${"<p>Clinical research in Chennai.</p>".repeat(20)}</main></div>` +
  `<div id="gatsby-announcer"></div></div>${PAGE_PATH_SCRIPT}${slice}</body></html>`;

/** Gatsby's page-path script, before the slice in every page it writes with scripts. */
export const PAGE_PATH_SCRIPT = '<script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script>';

/** A page written without Gatsby's scripts (src/script-free.ts): no page-path script, no slice. */
export const scriptFreePage = (title: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><div id="___gatsby">` +
  `<div style="outline:none" tabindex="-1" id="gatsby-focus-wrapper"><main><h1>${title}</h1></main></div>` +
  `<div id="gatsby-announcer"></div></div></body></html>`;

export const stats = {
  namedChunkGroups: {
    app: { assets: FIRST_SCRIPTS.map((src) => ({ name: src.slice(1) })) },
    "component---src-pages-home-tsx": {
      assets: [{ name: "component---src-pages-home-tsx-4.css" }, { name: "component---src-pages-home-tsx-5.js" }],
    },
  },
};

export interface Site {
  root: string;
  publicDir: string;
  siteStaticDir: string;
  write(file: string, content: string): void;
  read(file: string): string;
  cleanUp(): void;
}

export function makeSite(): Site {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "performance-plugin-"));
  const publicDir = path.join(root, "public");
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(publicDir, file)), { recursive: true });
    fs.writeFileSync(path.join(publicDir, file), content);
  };
  write("home/index.html", gatsbyPage("Home"));
  write("contact/index.html", gatsbyPage("Contact"));
  write("404.html", gatsbyPage("Not found"));
  write("_gatsby/slices/_gatsby-scripts-1.html", gatsbyScriptsSlice().replace(/<!--[^>]*-->/g, ""));
  write("webpack-runtime-1.js", RUNTIME);
  write(
    "framework-2.js",
    `(self.webpackChunkcyrus_website=self.webpackChunkcyrus_website||[]).push([[593],{961:function(){}}]);${"/* React */".repeat(30)}`,
  );
  write("app-3.js", APP);
  write(
    "component---src-pages-home-tsx-5.js",
    "(self.webpackChunkcyrus_website=self.webpackChunkcyrus_website||[]).push([[7],{}]);",
  );
  write("component---src-pages-home-tsx-4.css", ":root{--blue:#0f2a4a}");
  write("webpack.stats.json", JSON.stringify(stats));
  fs.mkdirSync(path.join(root, "static"));
  return {
    root,
    publicDir,
    siteStaticDir: path.join(root, "static"),
    write,
    read: (file) => fs.readFileSync(path.join(publicDir, file), "utf8"),
    cleanUp: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
