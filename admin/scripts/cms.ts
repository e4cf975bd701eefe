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
import path from "node:path";
import { parseArgs } from "node:util";
import { buildAdmin } from "./build";

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
function serveStudio(root: string, csp: string, port: number): Promise<http.Server> {
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
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "content-security-policy": csp,
      "x-robots-tag": "noindex, nofollow",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    });
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

export async function startStudio(options: StudioOptions = {}): Promise<RunningStudio> {
  const repo = path.resolve(options.repo ?? rootDir);
  if (!fs.existsSync(path.join(repo, "data"))) throw new Error(`${repo} has no data/ folder to edit`);
  const port = options.port ?? 8090;
  const apiPort = options.apiPort ?? 8081;
  const apiUrl = `http://127.0.0.1:${apiPort}/api/v1`;
  const out = path.resolve(options.out ?? path.join(adminDir, "dist/admin"));
  await buildAdmin({
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
