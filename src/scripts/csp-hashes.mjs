/**
 * The Content-Security-Policy of a build, as an nginx include:
 *
 *   node src/scripts/csp-hashes.mjs [--public public] [--out csp.conf] [--json]
 *   npm run csp-hashes -- --out /etc/nginx/cyrus/csp.conf
 *
 * Gatsby writes a few inline scripts into every page (the loader of the first scripts, the page
 * path, the chunk map, the compilation hash). script-src allows them by the SHA-256 of their exact
 * text, never by 'unsafe-inline'; since their text changes with every build, run this after each
 * build (deploy/nginx/render.mjs does) and reload nginx together with the new files.
 *
 * Reads every .html file under public/. Inline scripts that are data, not code (JSON-LD,
 * application/json), are not executed and so are not governed by CSP: they are not hashed. Inline
 * event handlers or javascript: URLs cannot be allowed by a hash (without 'unsafe-hashes'): they
 * stop the script with an error naming the file. Origins of embedded frames and images (the
 * contact page's map) are added to frame-src and img-src; connect-src adds the origin of
 * GATSBY_ENQUIRY_API when that is an absolute address (the form then posts there).
 *
 * Only Node built-ins, so it runs on a server installed with `npm ci --omit=dev`.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// Script types a browser runs (HTML "JavaScript MIME type essence match", "module"), and the inline
// types CSP governs although they are not JavaScript (import maps, speculation rules).
const JS_TYPES = new Set([
  "",
  "module",
  "importmap",
  "speculationrules",
  "application/ecmascript",
  "application/javascript",
  "application/x-ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/javascript",
  "text/javascript1.0",
  "text/javascript1.1",
  "text/javascript1.2",
  "text/javascript1.3",
  "text/javascript1.4",
  "text/javascript1.5",
  "text/jscript",
  "text/livescript",
  "text/x-ecmascript",
  "text/x-javascript",
]);

/** Every .html file under dir (sorted, so the output is stable). */
export function htmlFiles(dir) {
  const found = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith(".html")) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

/** Attributes of a start tag's attribute text, names lower-cased. */
export function parseAttributes(text) {
  const attributes = new Map();
  const pattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of text.matchAll(pattern)) {
    const name = m[1].toLowerCase();
    if (!attributes.has(name)) attributes.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attributes;
}

const decodeEntities = (value) =>
  value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (whole, entity) => {
    const e = entity.toLowerCase();
    if (e.startsWith("#x")) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
    return { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" }[e] ?? whole;
  });

/**
 * The inline scripts of one HTML document, with whether CSP governs each, and the other things the
 * policy depends on (external origins, inline handlers).
 */
export function scanHtml(html) {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, "");
  const scripts = [];
  // Script text is raw text: it ends at the first "</script", whatever it contains.
  const rest = withoutComments
    .replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (_whole, attrs, body) => {
      const attributes = parseAttributes(attrs);
      if (!attributes.has("src")) {
        const type = (attributes.get("type") ?? "").trim().toLowerCase();
        scripts.push({ type, text: body, governed: JS_TYPES.has(type) });
      }
      return `<script${attrs}></script>`;
    })
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, "<style></style>");

  const origins = { script: new Set(), style: new Set(), img: new Set(), frame: new Set(), media: new Set() };
  const problems = [];
  for (const m of rest.matchAll(/<([a-zA-Z][\w-]*)(\s[^>]*)?>/g)) {
    const tag = m[1].toLowerCase();
    const attributes = parseAttributes(m[2] ?? "");
    for (const [name, value] of attributes) {
      if (/^on[a-z]+$/.test(name))
        problems.push(`<${tag}> has an inline event handler (${name}), which script-src cannot allow by hash`);
      if (["href", "src", "action", "formaction"].includes(name) && /^\s*javascript:/i.test(decodeEntities(value))) {
        problems.push(`<${tag} ${name}> is a javascript: URL, which script-src cannot allow by hash`);
      }
    }
    const urls = (name) => {
      const value = attributes.get(name);
      if (value === undefined) return [];
      const decoded = decodeEntities(value);
      return name.endsWith("srcset")
        ? decoded
            .split(",")
            .map((c) => c.trim().split(/\s+/)[0])
            .filter(Boolean)
        : [decoded.trim()];
    };
    const add = (set, list) => {
      for (const url of list) if (/^https?:\/\//i.test(url)) set.add(new URL(url).origin);
    };
    if (tag === "script") add(origins.script, urls("src"));
    if (tag === "link" && /\bstylesheet\b/i.test(attributes.get("rel") ?? "")) add(origins.style, urls("href"));
    if (tag === "img" || tag === "source") add(origins.img, [...urls("src"), ...urls("srcset")]);
    if (tag === "iframe" || tag === "frame") add(origins.frame, urls("src"));
    if (tag === "video" || tag === "audio") add(origins.media, urls("src"));
  }
  return { scripts, origins, problems };
}

export const sha256 = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Absolute origin of the form's endpoint, when GATSBY_ENQUIRY_API points at another host. */
function enquiryApiOrigin(value) {
  if (!value || !/^https?:\/\//i.test(value.trim())) return undefined;
  return new URL(value.trim()).origin;
}

/**
 * The policy of the build in publicDir. Throws if the build has something no hash can allow, or no
 * HTML at all.
 */
export function buildCsp(publicDir, { enquiryApi = process.env.GATSBY_ENQUIRY_API } = {}) {
  if (!fs.existsSync(publicDir)) throw new Error(`${publicDir} does not exist: build the site first (npm run build)`);
  const files = htmlFiles(publicDir);
  if (files.length === 0) throw new Error(`no .html files in ${publicDir}: build the site first (npm run build)`);
  const hashes = new Set();
  const origins = { script: new Set(), style: new Set(), img: new Set(), frame: new Set(), media: new Set() };
  const problems = [];
  let inlineScripts = 0;
  let dataBlocks = 0;
  for (const file of files) {
    const scan = scanHtml(fs.readFileSync(file, "utf8"));
    for (const script of scan.scripts) {
      if (!script.governed) {
        dataBlocks += 1;
        continue;
      }
      inlineScripts += 1;
      hashes.add(sha256(script.text));
    }
    for (const [kind, set] of Object.entries(scan.origins)) set.forEach((o) => origins[kind].add(o));
    problems.push(...scan.problems.map((p) => `${path.relative(publicDir, file)}: ${p}`));
  }
  if (problems.length > 0)
    throw new Error(
      `the build has inline code that a Content-Security-Policy cannot allow without 'unsafe-inline':\n  ${problems.join("\n  ")}`,
    );

  const list = (...items) =>
    [...new Set(items.flatMap((i) => (i instanceof Set ? [...i].sort() : i === undefined ? [] : [i])))].join(" ");
  const directives = [
    ["default-src", "'self'"],
    ["script-src", list("'self'", origins.script, ...[...hashes].sort())],
    // Gatsby inlines the CSS in <style>, and images set their box and colour in style attributes.
    ["style-src", list("'self'", "'unsafe-inline'", origins.style)],
    ["img-src", list("'self'", "data:", origins.img)],
    ["font-src", "'self'"],
    ["connect-src", list("'self'", enquiryApiOrigin(enquiryApi))],
    ["media-src", list("'self'", origins.media)],
    ["frame-src", origins.frame.size > 0 ? list(origins.frame) : "'none'"],
    ["worker-src", "'self'"],
    ["manifest-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    // The contact form posts itself (no JavaScript) to the same endpoint the script sends to.
    ["form-action", list("'self'", enquiryApiOrigin(enquiryApi))],
    ["frame-ancestors", "'none'"],
  ];
  const policy = directives.map(([name, value]) => `${name} ${value}`).join("; ");
  if (/["$\\\n]/.test(policy)) throw new Error(`the policy has a character nginx cannot carry in a header: ${policy}`);
  return {
    policy,
    hashes: [...hashes].sort(),
    files: files.length,
    inlineScripts,
    dataBlocks,
    origins: Object.fromEntries(Object.entries(origins).map(([k, v]) => [k, [...v].sort()])),
  };
}

/** The nginx include for a policy. */
export function nginxInclude(csp, publicDir) {
  return [
    `# Content-Security-Policy of the build in ${publicDir}, written by src/scripts/csp-hashes.mjs`,
    `# at ${new Date().toISOString()}: ${csp.files} HTML files, ${csp.inlineScripts} inline scripts (${csp.hashes.length} distinct),`,
    `# ${csp.dataBlocks} JSON data blocks (not executed, not governed by CSP). Regenerate after every build.`,
    `add_header Content-Security-Policy "${csp.policy}" always;`,
    "",
  ].join("\n");
}

/** Writes a file by renaming a complete temporary copy over it, so nginx never reads half of it. */
export function writeAtomically(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: 0o644 });
  fs.renameSync(temp, file);
}

function main() {
  const { values } = parseArgs({
    options: {
      public: { type: "string", default: "public" },
      out: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log("usage: node src/scripts/csp-hashes.mjs [--public public] [--out csp.conf] [--json]");
    return 0;
  }
  const publicDir = path.resolve(values.public);
  const csp = buildCsp(publicDir);
  const include = nginxInclude(csp, publicDir);
  if (values.out) {
    writeAtomically(path.resolve(values.out), include);
    console.error(`wrote ${values.out}: ${csp.hashes.length} script hashes from ${csp.files} HTML files`);
  }
  if (values.json) console.log(JSON.stringify(csp, null, 2));
  else if (!values.out) process.stdout.write(include);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (error) {
    console.error(`csp-hashes: ${error.message}`);
    process.exitCode = 1;
  }
}
