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
 * Reads every .html file under public/ but Gatsby's slices (public/_gatsby/). It knows the scripts the
 * site writes, and fails on any other, naming the file and the script, rather than widen the policy for
 * it (a content mistake, or markup someone slipped in): inline, only the speculation rules (hashed)
 * and data blocks (JSON-LD, application/json: never executed, not governed by CSP, not hashed);
 * <script src> only for the site's own files (script-src 'self', no other origin). Inline event
 * handlers or javascript: URLs cannot be allowed by a hash (without 'unsafe-hashes'): they fail the
 * same way. Origins of embedded frames and images (the contact page's map) are added to frame-src and
 * img-src; connect-src adds the origin of GATSBY_ENQUIRY_API when that is an absolute address (the
 * form then posts there).
 *
 * Only Node built-ins and tsx (a dependency), so it runs on a server installed with `npm ci --omit=dev`.
 * It serves both ways of deploying (docs/deployment.md): nginx includes its output, and a static
 * host is given the same policy.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

/**
 * The inline scripts the site's own code writes, by type: its data blocks, which no browser runs and
 * CSP does not govern (JSON-LD in the pages' heads, the islands' data: src/node/islands.ts), and its
 * speculation rules (src/utils/speculation-rules.ts), which CSP governs: allowed by hash. Any other
 * inline script (a classic or module script, an import map, a type of its own) fails the build.
 */
const INLINE_SCRIPT_KINDS: ReadonlyMap<string, "data" | "code"> = new Map([
  ["application/ld+json", "data"],
  ["application/json", "data"],
  ["speculationrules", "code"],
]);

/** A stand-in for the site's origin: a <script src> must resolve to it, as a path of the site does. */
const SITE_ORIGIN = "https://site.invalid";

type OriginKind = "style" | "img" | "frame" | "media";
export type Origins<T> = Record<OriginKind, T>;

export interface InlineScript {
  type: string;
  text: string;
  /** Whether CSP governs it: the speculation rules, not a data block. */
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

/** A script as the build's error names it: its start tag and the start of its text. */
function quoted(attrs: string, body: string): string {
  const text = body.trim().replace(/\s+/g, " ");
  return `<script${attrs}>${text.length > 60 ? `${text.slice(0, 60)}…` : text}</script>`;
}

/** Why a <script src> is not one of the site's own files, or undefined when it is. */
function foreignSource(src: string): string | undefined {
  let url: URL;
  try {
    url = new URL(src, `${SITE_ORIGIN}/`);
  } catch {
    return "an address no browser can load";
  }
  if (url.origin === SITE_ORIGIN) return undefined;
  return url.origin === "null" ? `a ${url.protocol} URL` : `another origin, ${url.origin}`;
}

/**
 * The inline scripts of one HTML document, with whether CSP governs each, and the other things the
 * policy depends on (external origins, inline handlers), or why it cannot be allowed (problems).
 */
export function scanHtml(html: string): HtmlScan {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, "");
  const scripts: InlineScript[] = [];
  const problems: string[] = [];
  // Script text is raw text: it ends at the first "</script", whatever it contains.
  const rest = withoutComments
    .replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (_whole, attrs: string, body: string) => {
      const attributes = parseAttributes(attrs);
      const src = attributes.get("src");
      if (src !== undefined) {
        const foreign = foreignSource(decodeEntities(src));
        if (foreign)
          problems.push(`<script src="${src}"> is not one of the site's own files (${foreign}): script-src is 'self'`);
      } else {
        const type = (attributes.get("type") ?? "").trim().toLowerCase();
        const kind = INLINE_SCRIPT_KINDS.get(type);
        if (kind) scripts.push({ type, text: body, governed: kind === "code" });
        else
          problems.push(
            `${quoted(attrs, body)} is not one of the site's own inline scripts (speculation rules, JSON-LD, ` +
              "application/json data): its policy allows no other",
          );
      }
      return `<script${attrs}></script>`;
    })
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, "<style></style>");

  const origins = noOrigins();
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
      "the build has scripts its Content-Security-Policy does not allow (fix the page or the code that " +
        `wrote it; the policy is not widened for them):\n  ${problems.join("\n  ")}`,
    );

  const list = (...items: ReadonlyArray<Set<string> | string | undefined>) =>
    [...new Set(items.flatMap((i) => (i instanceof Set ? [...i].sort() : i === undefined ? [] : [i])))].join(" ");
  const directives: ReadonlyArray<readonly [string, string]> = [
    ["default-src", "'self'"],
    ["script-src", list("'self'", ...[...hashes].sort())],
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
