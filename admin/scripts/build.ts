/**
 * Builds the editing studio with esbuild, apart from the site's webpack bundles:
 *
 *   node --import tsx admin/scripts/build.ts [--out public/admin] [--data data] [--local <proxy url>]
 *
 * writes into --out: studio.js (Decap CMS, its configuration generated from data/schemas, and the
 * previews made of the site's views), studio.css (the site's CSS, for the preview frame only) and
 * csp.txt (the Content-Security-Policy the studio needs, for deploy/nginx/render.ts) and favicon.png
 * (the site's logo, which the page links: browsers ask for an icon either way). The page itself,
 * index.html, is static/admin/index.html, which Gatsby copies. Without a git host (CMS_BACKEND, see
 * backend.ts) studio.js only says that the studio is not set up, and Decap is not built at all.
 * The site's build runs this (plugins/gatsby-plugin-cyrus-admin); so does `npm run cms` with --local.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Plugin } from "esbuild";
import sharp from "sharp";
import { cmsCollections } from "../../src/node/content/cms-config";
import { contentFiles } from "../../src/node/content/content-files";
import type { JsonSchema } from "../../src/node/content/json-schema";
import type { BundledSource } from "../src/content-sources";
import { decapFixes } from "./decap-fixes";
import { deleteGuardFix } from "./delete-guard-fix";
import { adminCsp, backendFromEnv, localBackend, reviewFromEnv, SettingsError, type Backend } from "./backend";
import { dndKitPatch } from "./patch-dnd-kit";
import { uniqueUploadsFix } from "./unique-uploads-fix";

const adminDir = path.resolve(__dirname, "..");
const rootDir = path.dirname(adminDir);

export interface BuildOptions {
  out: string;
  dataDir?: string;
  /** decap-server's API (`npm run cms`); otherwise the git host of the environment, if any. */
  localProxyUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the page finds the stylesheet (the site's CSS) for its preview frame. */
  publicPath?: string;
  /**
   * The bar saying where a change is (admin/src/release-status-bar.tsx), for a site whose nginx serves
   * /admin/release-status.json (npm run release builds with CMS_RELEASE_STATUS=1); otherwise
   * CMS_RELEASE_STATUS of the environment. Without it the studio asks for no status (a 404 otherwise).
   */
  releaseStatus?: boolean;
  /** Review before going live (Decap's editorial workflow); otherwise CMS_REVIEW of the environment. */
  review?: boolean;
}

export interface BuildResult {
  backend: Backend;
  files: Record<string, number>;
  seconds: number;
}

/** The Decap configuration: the backend, and the collections generated from the schemas. */
export function cmsConfig(backend: NonNullable<Backend>, dataDir: string, review = false): Record<string, unknown> {
  return {
    backend,
    load_config_file: false,
    publish_mode: review ? "editorial_workflow" : "simple",
    // No deploy previews of a change (the site has none): Decap would otherwise ask the git host for
    // one every 5 seconds for two minutes after each save, and offer its "Check for Preview" button
    // (decap-fixes.ts hides that button while there is no preview to open).
    show_preview_links: false,
    // The Media page's own folder; every image field uploads into the images/ folder beside its file.
    media_folder: "data/site/images",
    public_folder: "images",
    slug: { encoding: "ascii", clean_accents: true, sanitize_replacement: "-" },
    collections: cmsCollections(dataDir),
  };
}

/**
 * The content files and their schemas, for the content check's rules the studio runs (admin/src/content-sources.ts).
 */
export function contentSourcesOf(dataDir: string): BundledSource[] {
  return contentFiles.map(({ file, schema, key }) => ({
    file,
    schema,
    ...(key ? { key } : {}),
    json: JSON.parse(fs.readFileSync(path.join(dataDir, "schemas", `${schema}.schema.json`), "utf8")) as JsonSchema,
  }));
}

/** React, react-dom and the Gatsby stand-ins from the studio's own package, wherever the importer is. */
function ownPackages(): Plugin {
  const shims: Record<string, string> = {
    gatsby: path.join(adminDir, "src/shims/gatsby.tsx"),
    "gatsby-plugin-image": path.join(adminDir, "src/shims/gatsby-plugin-image.ts"),
  };
  return {
    name: "studio-packages",
    setup(build) {
      build.onResolve({ filter: /^(gatsby|gatsby-plugin-image)$/ }, (args) => ({ path: shims[args.path]! }));
      // The content check's rules, bundled for the studio, join paths (path.posix): the browser's copy.
      build.onResolve({ filter: /^node:path$/ }, () => ({
        path: require.resolve("path-browserify", { paths: [adminDir] }),
      }));
      // The site's views import react from the site's folder: they get the studio's React 19, so the
      // bundle holds one React.
      build.onResolve({ filter: /^(react|react-dom|scheduler)(\/.*)?$/ }, async (args) => {
        if (args.pluginData === "studio") return undefined;
        const result = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: adminDir,
          pluginData: "studio",
        });
        return result.errors.length ? { errors: result.errors } : { path: result.path };
      });
    },
  };
}

export async function buildAdmin(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const dataDir = path.resolve(options.dataDir ?? path.join(rootDir, "data"));
  const out = path.resolve(options.out);
  const backend = options.localProxyUrl ? localBackend(options.localProxyUrl) : backendFromEnv(env);
  const publicPath = options.publicPath ?? "/admin";
  // npm run cms asks for review itself (decap-server's git mode); the environment is for a git host.
  const review = options.review ?? (backend?.name === "proxy" ? false : reviewFromEnv(backend, env));
  if (backend && !fs.existsSync(path.join(adminDir, "node_modules/decap-cms-app"))) {
    throw new SettingsError(
      "the studio's packages are not installed: run npm ci --prefix admin (Decap CMS and its React)",
    );
  }
  // esbuild: the studio's own, else the site's (a build without a git host needs nothing else).
  const esbuild = await import("esbuild");
  fs.mkdirSync(out, { recursive: true });
  for (const stale of ["studio.js", "studio.css", "csp.txt", "favicon.png"])
    fs.rmSync(path.join(out, stale), { force: true });

  const entry = backend ? "src/studio.tsx" : "src/not-set-up.ts";
  const result = await esbuild.build({
    absWorkingDir: adminDir,
    entryPoints: { studio: path.join(adminDir, entry) },
    outdir: out,
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: ["es2020"],
    jsx: "automatic",
    legalComments: "none",
    logLevel: "silent",
    metafile: true,
    loader: { ".module.css": "local-css", ".wasm": "file", ".svg": "file", ".woff": "file", ".woff2": "file" },
    define: {
      "process.env.NODE_ENV": '"production"',
      // The enquiry form of the Contact preview keeps the site's default endpoint.
      "process.env.GATSBY_ENQUIRY_API": "undefined",
      global: "globalThis",
      __CMS_CONFIG__: JSON.stringify(backend ? cmsConfig(backend, dataDir, review) : {}),
      __CONTENT_SOURCES__: JSON.stringify(backend ? contentSourcesOf(dataDir) : []),
      __PREVIEW_STYLE__: JSON.stringify(`${publicPath}/studio.css`),
      __RELEASE_STATUS__: JSON.stringify(options.releaseStatus ?? env.CMS_RELEASE_STATUS?.trim() === "1"),
    },
    plugins: [ownPackages(), dndKitPatch(), decapFixes(), uniqueUploadsFix(), deleteGuardFix()],
  });
  if (result.errors.length) throw new Error(result.errors.map((e) => e.text).join("\n"));
  fs.writeFileSync(path.join(out, "csp.txt"), `${adminCsp(backend)}\n`);
  await writeIcon(path.join(out, "favicon.png"));
  const files = Object.fromEntries(
    fs
      .readdirSync(out)
      .filter((name) => /^studio\.(js|css)$|^csp\.txt$/.test(name))
      .map((name) => [name, fs.statSync(path.join(out, name)).size]),
  );
  return { backend, files, seconds: (performance.now() - started) / 1000 };
}

/** The tab's icon: the site's logo (the manifest's icon too, gatsby-config.ts) at 32 pixels, on nothing. */
async function writeIcon(file: string): Promise<void> {
  await sharp(path.join(rootDir, "data/site/images/logo.png"))
    .resize(32, 32, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toFile(file);
}

/** "github owner/name@main", "local server", "not set up": for the build's one line of output. */
export function describeBackend(backend: Backend): string {
  if (!backend) return "not set up (no CMS_BACKEND): the page says so";
  if (backend.name === "proxy") return `the working copy through decap-server at ${backend.proxy_url}`;
  return `${backend.name} ${backend.repo}@${backend.branch}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: path.join(rootDir, "public/admin") },
      data: { type: "string" },
      local: { type: "string" },
    },
  });
  try {
    const result = await buildAdmin({ out: values.out!, dataDir: values.data, localProxyUrl: values.local });
    const sizes = Object.entries(result.files)
      .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)} KB`)
      .join(", ");
    console.log(
      `editing studio: ${describeBackend(result.backend)}; ${sizes} in ${path.relative(process.cwd(), values.out!) || "."} (${result.seconds.toFixed(1)} s)`,
    );
    return 0;
  } catch (error) {
    console.error(`The editing studio could not be built: ${(error as Error).message}`);
    return 1;
  }
}

if (require.main === module) {
  main().then((code) => (process.exitCode = code));
}
