/**
 * A small public/ as the site's build writes it with Gatsby 5.16.1, for the plugin's post-build
 * check: pages without script, a page with its island, and what Gatsby itself would write (its
 * scripts slice and page-path script) if the site's gatsby-ssr.tsx no longer removed them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const FIRST_SCRIPTS = ["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"];

export const gatsbyScriptsSlice = (
  inner = FIRST_SCRIPTS.map((src) => `<script src="${src}" async></script>`).join(""),
) =>
  `<!-- slice-start id="_gatsby-scripts-1" --><script>window.___webpackCompilationHash="abc";</script>${inner}<!-- slice-end id="_gatsby-scripts-1" -->`;

/** Gatsby's page-path script, before the slice in every page it writes with scripts. */
export const PAGE_PATH_SCRIPT = '<script id="gatsby-script-loader">/*<![CDATA[*/window.pagePath="/";/*]]>*/</script>';

const page = (title: string, head: string, afterBody: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>${title}</title>${head}</head><body><div id="___gatsby">` +
  `<div style="outline:none" tabindex="-1" id="gatsby-focus-wrapper"><main><h1>${title}</h1></main></div>` +
  `<div id="gatsby-announcer"></div></div>${afterBody}</body></html>`;

const SPECULATION =
  '<script type="speculationrules">{"prefetch":[]}</script><script type="application/ld+json">{}</script>';

/** A page as Gatsby writes it with its runtime. */
export const gatsbyPage = (title: string) => page(title, SPECULATION, `${PAGE_PATH_SCRIPT}${gatsbyScriptsSlice()}`);

/** A page whose components registered nothing: no script but data. */
export const scriptFreePage = (title: string) => page(title, SPECULATION, "");

/** A page with the carousel's island and its data. */
export const islandPage = (title: string) =>
  page(
    title,
    SPECULATION,
    '<script id="island-data-carousel" type="application/json">{"play":"Play"}</script><script type="module" src="/islands/carousel-ABC.js" data-island="carousel"></script>',
  );

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
  write("home/index.html", islandPage("Home"));
  write("aboutus/index.html", scriptFreePage("About"));
  write("404.html", scriptFreePage("Not found"));
  // Gatsby's own copy of its scripts slice, which no page includes: not a page, not checked.
  write("_gatsby/slices/_gatsby-scripts-1.html", gatsbyScriptsSlice().replace(/<!--[^>]*-->/g, ""));
  write("islands/carousel-ABC.js", "document.title;");
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
