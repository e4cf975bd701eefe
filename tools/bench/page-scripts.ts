/**
 * The JavaScript one built page loads, read from its HTML and the files of public/ alone (no browser,
 * so a unit test can run it on a tiny fixture): every script file it loads, modules and their
 * imports included, with their compressed sizes, and its inline scripts.
 *
 * - `<script src>` of any JavaScript type (classic or module), `<link rel="modulepreload">` and
 *   `<link rel="preload" as="script">`;
 * - each module's `import`/`export … from` and `import()` of the site's own files, followed to the end
 *   (a dynamic import is counted too: it may load at any moment, and a budget should not depend on
 *   whether a visitor clicked);
 * - a page that starts Gatsby's runtime (its `window.___chunkMapping` or webpack runtime) also loads
 *   webpack's `app` chunk group and the page component's, from public/webpack.stats.json (Gatsby's
 *   loader adds them from script, so the HTML alone does not name them all);
 * - inline scripts that run (not JSON-LD, speculation rules or other data blocks).
 *
 * "Has behaviour" is read from the HTML too: a page with a `<script type="module" src>` (an island) has
 * some. Sizes: gzip level 6 (what `gatsby serve` and nginx's `gzip on` send) and brotli quality 11
 * (the deployment's precompressed copies).
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface ScriptFile extends Sizes {
  /** The URL path, as the page asks for it ("/islands/carousel-1a2b.js"). */
  file: string;
  /** How the page comes to load it. */
  via: "script" | "module" | "modulepreload" | "preload" | "import" | "gatsby";
}

export interface PageScripts extends Sizes {
  /** A `<script type="module" src>` is on the page. */
  hasBehaviour: boolean;
  /** The page starts Gatsby's runtime. */
  gatsbyRuntime: boolean;
  /** Script files loaded (each one request), sizes included in the totals. */
  files: ScriptFile[];
  /** Inline scripts that run: their count and raw bytes (they travel in the HTML). */
  inline: { count: number; raw: number };
  /** Scripts from another origin (not sized) and the site's own that are not in public/. */
  external: string[];
  missing: string[];
}

/** The most script files followed on one page: a cycle or a runaway import graph stops here. */
const MAX_FILES = 200;

const JS_TYPES = /^(?:|module|(?:text|application)\/(?:x-)?(?:java|ecma)script)$/i;

type Attributes = Record<string, string>;

function attributes(source: string): Attributes {
  const attrs: Attributes = {};
  for (const m of source.matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    attrs[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  }
  return attrs;
}

/** Static and dynamic imports in a module's text (minified or not). */
export function moduleImports(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /(?:^|[;\s{}()])(?:import|export)\s*(?:[\w$*{},\s]+?\s*from\s*)?(["'])([^"'\n]+)\1/g,
    /(?:^|[^\w$.])import\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.add(m[2]!);
  return [...found];
}

export function sizesOf(body: Buffer): Sizes {
  return {
    raw: body.length,
    gzip: zlib.gzipSync(body, { level: 6 }).length,
    brotli: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** The built HTML of a route in a public/ folder. */
export function htmlFileOf(publicDir: string, route: string): string {
  const name = route.replace(/^\/+|\/+$/g, "");
  const candidates = name
    ? [path.join(publicDir, name, "index.html"), path.join(publicDir, `${name}.html`)]
    : [path.join(publicDir, "index.html")];
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found) throw new Error(`no built HTML for ${route} in ${publicDir}`);
  return found;
}

interface WebpackStats {
  namedChunkGroups?: Record<string, { assets: Array<string | { name: string }> } | undefined>;
}

/** The JavaScript files of a webpack chunk group, as Gatsby's build lists them. */
function chunkGroupJs(publicDir: string, group: string): string[] {
  const statsFile = path.join(publicDir, "webpack.stats.json");
  if (!fs.existsSync(statsFile)) throw new Error(`Gatsby's runtime is on the page but ${statsFile} is missing`);
  const stats = JSON.parse(fs.readFileSync(statsFile, "utf8")) as WebpackStats;
  const assets = stats.namedChunkGroups?.[group]?.assets;
  if (!assets) throw new Error(`chunk group ${group} is not in ${statsFile}`);
  return assets.map((a) => (typeof a === "string" ? a : a.name)).filter((n) => n.endsWith(".js"));
}

/**
 * Every script a built page loads. `sizeCache` (by URL path) lets one run over many pages compress each
 * shared file once.
 */
export function pageScripts(
  publicDir: string,
  route: string,
  sizeCache: Map<string, Sizes> = new Map(),
): PageScripts {
  const html = fs.readFileSync(htmlFileOf(publicDir, route), "utf8");
  const pageUrl = new URL(route.endsWith("/") ? route : `${route}/`, "http://site.invalid");
  const queue: Array<{ url: string; via: ScriptFile["via"] }> = [];
  const inline = { count: 0, raw: 0 };
  let hasBehaviour = false;
  let gatsbyRuntime = /window\.___chunkMapping\b/.test(html);

  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = attributes(m[1]!);
    const type = (attrs.type ?? "").trim();
    if (!JS_TYPES.test(type)) continue; // JSON-LD, speculation rules and other data blocks do not run
    const isModule = type.toLowerCase() === "module";
    if (attrs.src !== undefined) {
      if (isModule) hasBehaviour = true;
      queue.push({ url: attrs.src, via: isModule ? "module" : "script" });
    } else {
      inline.count += 1;
      inline.raw += Buffer.byteLength(m[2]!);
      // An inline module's imports are files the page loads all the same.
      if (isModule) for (const spec of moduleImports(m[2]!)) queue.push({ url: spec, via: "import" });
    }
  }
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = attributes(m[1]!);
    const rel = (attrs.rel ?? "").toLowerCase().split(/\s+/);
    if (attrs.href === undefined) continue;
    if (rel.includes("modulepreload")) queue.push({ url: attrs.href, via: "modulepreload" });
    else if (rel.includes("preload") && (attrs.as ?? "").toLowerCase() === "script")
      queue.push({ url: attrs.href, via: "preload" });
  }
  if (queue.some((q) => /(?:^|\/)webpack-runtime-[\w-]*\.js$/.test(q.url))) gatsbyRuntime = true;
  if (gatsbyRuntime) {
    const pageDataFile = path.join(
      publicDir,
      "page-data",
      route.replace(/^\/+|\/+$/g, "") || "index",
      "page-data.json",
    );
    const groups = ["app"];
    if (fs.existsSync(pageDataFile)) {
      const { componentChunkName } = JSON.parse(fs.readFileSync(pageDataFile, "utf8")) as {
        componentChunkName?: string;
      };
      if (componentChunkName) groups.push(componentChunkName);
    }
    for (const group of groups) for (const file of chunkGroupJs(publicDir, group)) queue.push({ url: `/${file}`, via: "gatsby" });
  }

  const files: ScriptFile[] = [];
  const seen = new Set<string>();
  const external: string[] = [];
  const missing: string[] = [];
  const modules = new Set(["module", "modulepreload", "import"]);
  for (let i = 0; i < queue.length && seen.size < MAX_FILES; i += 1) {
    const { url, via } = queue[i]!;
    const resolved = new URL(url, pageUrl);
    if (resolved.origin !== pageUrl.origin) {
      if (!external.includes(resolved.href)) external.push(resolved.href);
      continue;
    }
    const urlPath = decodeURIComponent(resolved.pathname);
    if (seen.has(urlPath)) continue;
    seen.add(urlPath);
    const onDisk = path.join(publicDir, urlPath);
    if (!onDisk.startsWith(publicDir + path.sep) || !fs.existsSync(onDisk) || !fs.statSync(onDisk).isFile()) {
      missing.push(urlPath);
      continue;
    }
    const body = fs.readFileSync(onDisk);
    let size = sizeCache.get(urlPath);
    if (!size) {
      size = sizesOf(body);
      sizeCache.set(urlPath, size);
    }
    files.push({ file: urlPath, via, ...size });
    if (modules.has(via)) {
      for (const spec of moduleImports(body.toString("utf8"))) {
        // Bare specifiers would need an import map; the site has none, so the browser could not load them.
        if (!/^(?:\.{0,2}\/|[a-z][\w+.-]*:)/i.test(spec)) {
          missing.push(spec);
          continue;
        }
        queue.push({ url: new URL(spec, resolved).href, via: "import" });
      }
    }
  }
  const total = (key: keyof Sizes) => files.reduce((sum, f) => sum + f[key], 0);
  return {
    hasBehaviour,
    gatsbyRuntime,
    files,
    inline,
    external,
    missing,
    raw: total("raw"),
    gzip: total("gzip"),
    brotli: total("brotli"),
  };
}
