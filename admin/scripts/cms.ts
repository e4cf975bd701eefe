/**
 * `npm run cms`: the editing studio on this computer, saving into the working copy's data/.
 *
 * Builds the studio for the local backend into admin/dist/admin, starts decap-server (Decap's own
 * local backend, MODE=fs: it reads and writes the files of a folder, nothing else) on 127.0.0.1, and
 * serves the studio on 127.0.0.1 with the same Content-Security-Policy as in production. Nothing
 * listens beyond this computer, nothing is sent elsewhere; editors sign in with the button alone.
 *
 *   npm run cms [-- --port 8090 --api-port 8081 --repo <folder holding data/> --review]
 *
 * --review tries the published site's review before going live (CMS_REVIEW=1) on this computer:
 * decap-server's MODE=git keeps each unpublished change on a branch of the working copy (which must
 * be a git repository on its main branch, with nothing uncommitted) and Publish merges it into main.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildAdmin, cmsConfig } from "./build";
import { localBackend } from "./backend";

const adminDir = path.resolve(__dirname, "..");
const rootDir = path.dirname(adminDir);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
};

export interface StudioOptions {
  /** The folder whose data/ the studio edits (the working copy; a copy in the tests). */
  repo?: string;
  port?: number;
  apiPort?: number;
  /** Where the studio is built (admin/dist). */
  out?: string;
  /** Review before going live: drafts on branches of the repo (decap-server MODE=git). */
  review?: boolean;
  /** The release status bar, reading <out>/release-status.json (tests write one there). */
  releaseStatus?: boolean;
  /** Tests: copy a studio this process built before, if alike (buildOrReuse). */
  reuseBuild?: boolean;
}

export interface RunningStudio {
  /** http://127.0.0.1:<port>/admin */
  url: string;
  apiUrl: string;
  /** decap-server's output so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Serves the built studio under /admin (and / forwards there), with its own policy and no indexing. */
export function serveStudio(root: string, csp: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    if (pathname === "/" || pathname === "/admin/") {
      res.writeHead(302, { location: "/admin" }).end();
      return;
    }
    const name = pathname === "/admin" ? "index.html" : pathname.replace(/^\/admin\//, "");
    const file = path.join(root, name);
    if (!pathname.startsWith("/admin") || !file.startsWith(root + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    // The studio's script (6 MB) is asked again on every load, but answered "not modified" while the
    // build is the same: the browser then also keeps its compiled code. The rest is never stored.
    const stat = fs.statSync(file);
    const revalidated = /\.(js|css|wasm)$/.test(file);
    const etag = `"${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}"`;
    const headers = {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "content-security-policy": csp,
      "x-robots-tag": "noindex, nofollow",
      "x-content-type-options": "nosniff",
      "cache-control": revalidated ? "no-cache" : "no-store",
      ...(revalidated ? { etag } : {}),
    };
    if (revalidated && req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** Waits (bounded: 20 s) until decap-server answers its info action. */
async function waitForApi(apiUrl: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`decap-server stopped:\n${log()}`);
    try {
      const res = await fetch(apiUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ action: "info" }),
        signal: AbortSignal.timeout(1000),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`decap-server did not answer at ${apiUrl} within 20 s:\n${log()}`);
}

type StudioBuild = Required<
  Pick<Parameters<typeof buildAdmin>[0], "out" | "dataDir" | "localProxyUrl" | "review" | "releaseStatus">
>;

/** Studios built by this process, by what they were built from (their API's address aside). */
const built = new Map<string, { dir: string; origin: RegExp }>();
/** The files a studio build writes that name its API's address (decap-server's port). */
const NAMING_API = ["studio.js", "csp.txt"];

/**
 * The browser tests start a studio per test file, alike but for decap-server's port (a free one each
 * time): esbuild's bundle of Decap took 7 s of each start. A studio built before in this process from
 * the same configuration is copied instead, its API's address replaced by the new one, which makes the
 * very files a build would. (A copy that kept the old address would be refused by its own policy, or
 * talk to a stopped server: every studio test would fail.)
 */
export async function buildOrReuse(options: StudioBuild): Promise<void> {
  const { out, localProxyUrl: apiUrl } = options;
  const key = JSON.stringify([
    cmsConfig(localBackend("http://api.invalid/"), options.dataDir, options.review),
    options.review,
    options.releaseStatus,
  ]);
  const earlier = built.get(key);
  // The origin, not the whole URL: the policy names the origin alone. Not followed by a digit (:80 in :8081).
  const newOrigin = new URL(apiUrl).origin;
  if (earlier && fs.existsSync(earlier.dir)) {
    fs.mkdirSync(out, { recursive: true });
    for (const file of fs.readdirSync(earlier.dir)) {
      const from = path.join(earlier.dir, file);
      if (NAMING_API.includes(file))
        fs.writeFileSync(path.join(out, file), fs.readFileSync(from, "utf8").replace(earlier.origin, newOrigin));
      else fs.cpSync(from, path.join(out, file), { recursive: true });
    }
    return;
  }
  await buildAdmin(options);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-studio-build-"));
  fs.cpSync(out, dir, { recursive: true });
  if (built.size === 0)
    process.once("exit", () => built.forEach((b) => fs.rmSync(b.dir, { recursive: true, force: true })));
  built.set(key, { dir, origin: new RegExp(`${newOrigin.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(?!\\d)`, "g") });
}

export async function startStudio(options: StudioOptions = {}): Promise<RunningStudio> {
  const repo = path.resolve(options.repo ?? rootDir);
  if (!fs.existsSync(path.join(repo, "data"))) throw new Error(`${repo} has no data/ folder to edit`);
  const port = options.port ?? 8090;
  const apiPort = options.apiPort ?? 8081;
  const apiUrl = `http://127.0.0.1:${apiPort}/api/v1`;
  const out = path.resolve(options.out ?? path.join(adminDir, "dist/admin"));
  const build = options.reuseBuild ? buildOrReuse : buildAdmin;
  await build({
    out,
    dataDir: path.join(repo, "data"),
    localProxyUrl: apiUrl,
    review: options.review ?? false,
    releaseStatus: options.releaseStatus ?? false,
  });
  fs.copyFileSync(path.join(rootDir, "static/admin/index.html"), path.join(out, "index.html"));

  let output = "";
  const child = spawn(process.execPath, [path.join(adminDir, "node_modules/decap-server/dist/index.js")], {
    // decap-server reads a .env file from its working folder: the studio's folder has none.
    cwd: adminDir,
    env: {
      ...process.env,
      MODE: options.review ? "git" : "fs",
      BIND_HOST: "127.0.0.1",
      PORT: String(apiPort),
      GIT_REPO_DIRECTORY: repo,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const stopServer = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  let server: http.Server | undefined;
  try {
    await waitForApi(apiUrl, child, () => output);
    server = await serveStudio(out, fs.readFileSync(path.join(out, "csp.txt"), "utf8").trim(), port);
  } catch (error) {
    await stopServer();
    throw error;
  }
  const web = server;
  return {
    url: `http://127.0.0.1:${port}/admin`,
    apiUrl,
    log: () => output,
    stop: async () => {
      await new Promise((resolve) => web.close(resolve));
      web.closeAllConnections();
      await stopServer();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: process.env.CMS_PORT ?? "8090" },
      "api-port": { type: "string", default: process.env.CMS_API_PORT ?? "8081" },
      repo: { type: "string" },
      review: { type: "boolean", default: false },
    },
  });
  const studio = await startStudio({
    repo: values.repo,
    port: Number(values.port),
    apiPort: Number(values["api-port"]),
    review: values.review,
  });
  const repo = path.resolve(values.repo ?? rootDir);
  console.log(`\nEditing studio: ${studio.url}\n`);
  console.log(`It saves into ${path.join(repo, "data")}; check with npm run check:content. Ctrl+C stops it.`);
  const stop = () => {
    studio.stop().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((error: Error) => {
    console.error(`npm run cms: ${error.message}`);
    process.exitCode = 1;
  });
}
