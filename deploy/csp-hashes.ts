/**
 * The Content-Security-Policy of a build, as an nginx include:
 *
 *   npm run csp-hashes -- [--public public] [--out csp.conf] [--json]
 *   node --import tsx deploy/csp-hashes.ts --out /etc/nginx/cyrus/csp.conf
 *
 * The pages' inline scripts (today the speculation rules alone: no page carries Gatsby's scripts, and
 * the islands are modules from 'self') are allowed by the SHA-256 of their exact text, never by
 * 'unsafe-inline'; since a text may change with a build, run this after each build
 * (deploy/nginx/render.ts does) and reload nginx together with the new files.
 *
 * Reads every .html file under public/ but Gatsby's slices (public/_gatsby/). Inline scripts that are data, not code (JSON-LD,
 * application/json), are not executed and so are not governed by CSP: they are not hashed. Inline
 * event handlers or javascript: URLs cannot be allowed by a hash (without 'unsafe-hashes'): they
 * stop the script with an error naming the file. Origins of embedded frames and images (the
 * contact page's map) are added to frame-src and img-src; connect-src adds the origin of
 * GATSBY_ENQUIRY_API when that is an absolute address (the form then posts there).
 *
 * Only Node built-ins and tsx (a dependency), so it runs on a server installed with `npm ci --omit=dev`.
 * It serves both ways of deploying (docs/deployment.md): nginx includes its output, and a static
 * host is given the same policy.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
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

type OriginKind = "script" | "style" | "img" | "frame" | "media";
export type Origins<T> = Record<OriginKind, T>;

export interface InlineScript {
  type: string;
  text: string;
  /** Whether CSP governs it: code, not a data block. */
  governed: boolean;
}

export interface HtmlScan {
  scripts: InlineScript[];
  origins: Origins<Set<string>>;
  problems: string[];
}

export interface Csp {
  policy: string;
  hashes: string[];
  files: number;
  inlineScripts: number;
  dataBlocks: number;
  origins: Origins<string[]>;
}

const noOrigins = (): Origins<Set<string>> => ({
  script: new Set(),
  style: new Set(),
  img: new Set(),
  frame: new Set(),
  media: new Set(),
});

/** Every .html file under dir (sorted, so the output is stable). */
export function htmlFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      // Gatsby's slices (public/_gatsby/slices/): fragments it stitches into pages while it builds, not
      // documents; its scripts slice is stitched into none, so its inline scripts run nowhere.
      if (entry.isDirectory() && d === dir && entry.name === "_gatsby") continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith(".html")) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

/** Attributes of a start tag's attribute text, names lower-cased. */
export function parseAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of text.matchAll(pattern)) {
    const name = m[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attributes;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };

const decodeEntities = (value: string) =>
  value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (whole, entity: string) => {
    const e = entity.toLowerCase();
    if (e.startsWith("#x")) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
    return ENTITIES[e] ?? whole;
  });

/**
 * The inline scripts of one HTML document, with whether CSP governs each, and the other things the
 * policy depends on (external origins, inline handlers).
 */
export function scanHtml(html: string): HtmlScan {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, "");
  const scripts: InlineScript[] = [];
  // Script text is raw text: it ends at the first "</script", whatever it contains.
  const rest = withoutComments
    .replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (_whole, attrs: string, body: string) => {
      const attributes = parseAttributes(attrs);
      if (!attributes.has("src")) {
        const type = (attributes.get("type") ?? "").trim().toLowerCase();
        scripts.push({ type, text: body, governed: JS_TYPES.has(type) });
      }
      return `<script${attrs}></script>`;
    })
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, "<style></style>");

  const origins = noOrigins();
  const problems: string[] = [];
  for (const m of rest.matchAll(/<([a-zA-Z][\w-]*)(\s[^>]*)?>/g)) {
    const tag = m[1]!.toLowerCase();
    const attributes = parseAttributes(m[2] ?? "");
    for (const [name, value] of attributes) {
      if (/^on[a-z]+$/.test(name))
        problems.push(`<${tag}> has an inline event handler (${name}), which script-src cannot allow by hash`);
      if (["href", "src", "action", "formaction"].includes(name) && /^\s*javascript:/i.test(decodeEntities(value))) {
        problems.push(`<${tag} ${name}> is a javascript: URL, which script-src cannot allow by hash`);
      }
    }
    const urls = (name: string): string[] => {
      const value = attributes.get(name);
      if (value === undefined) return [];
      const decoded = decodeEntities(value);
      return name.endsWith("srcset")
        ? decoded
            .split(",")
            .map((c) => c.trim().split(/\s+/)[0] ?? "")
            .filter(Boolean)
        : [decoded.trim()];
    };
    const add = (set: Set<string>, list: readonly string[]) => {
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

export const sha256 = (text: string): string =>
  `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Absolute origin of the form's endpoint, when GATSBY_ENQUIRY_API points at another host. */
function enquiryApiOrigin(value: string | undefined): string | undefined {
  if (!value || !/^https?:\/\//i.test(value.trim())) return undefined;
  return new URL(value.trim()).origin;
}

/**
 * The policy of the build in publicDir. Throws if the build has something no hash can allow, or no
 * HTML at all.
 */
export function buildCsp(publicDir: string, { enquiryApi = process.env.GATSBY_ENQUIRY_API } = {}): Csp {
  if (!fs.existsSync(publicDir)) throw new Error(`${publicDir} does not exist: build the site first (npm run build)`);
  const files = htmlFiles(publicDir);
  if (files.length === 0) throw new Error(`no .html files in ${publicDir}: build the site first (npm run build)`);
  const hashes = new Set<string>();
  const origins = noOrigins();
  const problems: string[] = [];
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
    for (const kind of Object.keys(origins) as OriginKind[]) scan.origins[kind].forEach((o) => origins[kind].add(o));
    problems.push(...scan.problems.map((p) => `${path.relative(publicDir, file)}: ${p}`));
  }
  if (problems.length > 0)
    throw new Error(
      `the build has inline code that a Content-Security-Policy cannot allow without 'unsafe-inline':\n  ${problems.join("\n  ")}`,
    );

  const list = (...items: ReadonlyArray<Set<string> | string | undefined>) =>
    [...new Set(items.flatMap((i) => (i instanceof Set ? [...i].sort() : i === undefined ? [] : [i])))].join(" ");
  const directives: ReadonlyArray<readonly [string, string]> = [
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
    origins: {
      script: [...origins.script].sort(),
      style: [...origins.style].sort(),
      img: [...origins.img].sort(),
      frame: [...origins.frame].sort(),
      media: [...origins.media].sort(),
    },
  };
}

/** The nginx include for a policy. */
export function nginxInclude(csp: Csp, publicDir: string): string {
  return [
    `# Content-Security-Policy of the build in ${publicDir}, written by deploy/csp-hashes.ts`,
    `# at ${new Date().toISOString()}: ${csp.files} HTML files, ${csp.inlineScripts} inline scripts (${csp.hashes.length} distinct),`,
    `# ${csp.dataBlocks} JSON data blocks (not executed, not governed by CSP). Regenerate after every build.`,
    `add_header Content-Security-Policy "${csp.policy}" always;`,
    "",
  ].join("\n");
}

/** Writes a file by renaming a complete temporary copy over it, so nginx never reads half of it. */
export function writeAtomically(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: 0o644 });
  fs.renameSync(temp, file);
}

function main(): number {
  const { values } = parseArgs({
    options: {
      public: { type: "string", default: "public" },
      out: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log("usage: npm run csp-hashes -- [--public public] [--out csp.conf] [--json]");
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

// Run as a command, not when render.ts imports it.
if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (error) {
    console.error(`csp-hashes: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
