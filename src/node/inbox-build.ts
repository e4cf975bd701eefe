/**
 * The inbox's pages (/inbox/, /inbox/welcome/): a React app of its own (src/inbox/), bundled with
 * esbuild into public/inbox/ beside the islands in onPreBuild. Not a Gatsby page, so the public
 * site's routes, sitemap, budgets and islands-only check never see it (builtPages skips the folder).
 * The HTML carries no inline script or style: the inbox's CSP (deploy/nginx/render.ts INBOX_CSP)
 * allows only the site's own files.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

/** Where the inbox is served from, under the site's root. */
export const INBOX_DIR = "inbox";

/** The pages: each loads the same bundle, which picks its view from the path. */
const PAGES = [
  { file: "index.html", title: "Enquiries inbox" },
  { file: path.join("welcome", "index.html"), title: "Welcome to the enquiries inbox" },
];

export async function buildInbox({ root = process.cwd(), publicDir = path.join(root, "public") } = {}) {
  const outdir = path.join(publicDir, INBOX_DIR);
  // A previous build's bundle (another hash) would be published with no page naming it.
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { inbox: path.join(root, "src", "inbox", "main.tsx") },
    outdir,
    entryNames: "[name]-[hash]",
    bundle: true,
    format: "esm",
    minify: true,
    target: ["es2020"],
    platform: "browser",
    jsx: "automatic",
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  const outputs = Object.keys(result.metafile.outputs).map((output) => `/${INBOX_DIR}/${path.basename(output)}`);
  const script = outputs.find((o) => o.endsWith(".js"));
  const style = outputs.find((o) => o.endsWith(".css"));
  if (!script || !style) throw new Error(`esbuild wrote no inbox bundle: ${outputs.join(", ")}`);
  for (const page of PAGES) {
    const file = path.join(outdir, page.file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, pageHtml(page.title, script, style));
  }
  return { script, style };
}

export function pageHtml(title: string, script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<link rel="stylesheet" href="${style}">
<script type="module" src="${script}"></script>
</head>
<body>
<div id="inbox"><noscript>The inbox needs JavaScript.</noscript></div>
</body>
</html>
`;
}
