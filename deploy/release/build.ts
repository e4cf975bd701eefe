/**
 * The content check, the production build and the check of its result, in the release folder, each
 * in the build's sandbox (sandbox.ts): the new commit's code can write its own release folder and
 * nothing else, and reads no other release, no settings and no mirror.
 *
 * Build caches: Gatsby's incremental build needs the previous build's .cache (its data store, the
 * webpack and image caches) and public/ (pages and images it does not make again). .cache is moved
 * from the live release (nothing reads it once built), public/ is copied (the live release keeps
 * serving its own). A release that fails does not give .cache back: the build of a commit that never
 * went live has written it, and the next build must not start from what that commit left (it is a
 * cold one instead: slower, same result). Without them the build is a cold one.
 *
 * Both record absolute paths (webpack's module ids, the data store's file nodes): a build in a new
 * folder each time would find nothing in them. So every release is built at the same path,
 * <root>/build, and renamed to releases/<id> afterwards (a rename: no copy).
 */
import fs from "node:fs";
import path from "node:path";
import { must, run, StepError } from "./exec";
import { ownPath, paths } from "./layout";
import { runSandboxed, sandboxFor } from "./sandbox";

export interface Carried {
  cache: boolean;
  public: boolean;
}

export async function carryCaches(dir: string, previous: string | undefined): Promise<Carried> {
  const carried: Carried = { cache: false, public: false };
  if (!previous) return carried;
  // Whatever the content check left under these names (a link out of the folder included) goes first.
  const ownCache = ownPath(dir, ".cache");
  const ownPublic = ownPath(dir, "public");
  fs.rmSync(ownCache, { recursive: true, force: true });
  fs.rmSync(ownPublic, { recursive: true, force: true });
  const cache = path.join(previous, ".cache");
  if (fs.existsSync(cache)) {
    fs.renameSync(cache, ownCache);
    carried.cache = true;
  }
  if (fs.existsSync(path.join(previous, "public"))) {
    // --reflink=auto: a copy-on-write clone where the file system has them (btrfs, XFS), else a copy.
    await must("caches", run("cp", ["-a", "--reflink=auto", path.join(previous, "public"), ownPublic]));
    carried.public = true;
  }
  return carried;
}

export async function checkContent(dir: string, env: NodeJS.ProcessEnv, root: string): Promise<void> {
  await must(
    "content check",
    runSandboxed("npm", ["run", "--silent", "check:content"], { cwd: dir, env, sandbox: sandboxFor(root, dir) }),
  );
}

export async function build(dir: string, env: NodeJS.ProcessEnv, root: string): Promise<void> {
  await must(
    "build",
    runSandboxed("npx", ["--no-install", "gatsby", "build"], { cwd: dir, env, sandbox: sandboxFor(root, dir) }),
  );
}

/** The build's id: Gatsby's compilation hash, which each page carries (window.___webpackCompilationHash). */
export function buildHash(dir: string): string {
  const appData = JSON.parse(fs.readFileSync(path.join(dir, "public", "page-data", "app-data.json"), "utf8")) as {
    webpackCompilationHash?: string;
  };
  if (!appData.webpackCompilationHash) throw new Error("public/page-data/app-data.json has no webpackCompilationHash");
  return appData.webpackCompilationHash;
}

/**
 * Every route data/ defines is a page of the build. The routes come from the release's own code
 * (src/node/content/read-content.ts, which the site's tests use too), run in the release folder, in
 * the sandbox: list-routes.ts (the runner's) is copied into the sandbox's private folder for it.
 */
export async function checkRoutes(dir: string, env: NodeJS.ProcessEnv, root: string): Promise<string[]> {
  // New ("EXCL"): the sandbox writes that folder too, and a link it left there is not written through.
  const lister = path.join(paths(root).buildTmp, "list-routes.ts");
  fs.rmSync(lister, { force: true });
  fs.copyFileSync(path.join(__dirname, "list-routes.ts"), lister, fs.constants.COPYFILE_EXCL);
  const { output } = await must(
    "site check",
    runSandboxed(process.execPath, ["--import", "tsx", lister, dir], {
      cwd: dir,
      env,
      quiet: true,
      sandbox: sandboxFor(root, dir),
    }),
  );
  const routes = JSON.parse(output.trim().split("\n").at(-1) ?? "[]") as string[];
  const missing = routes.filter((route) => !fs.existsSync(path.join(dir, "public", route, "index.html")));
  if (!fs.existsSync(path.join(dir, "public", "404.html"))) missing.push("/404 (404.html)");
  if (missing.length > 0 || routes.length === 0) {
    throw new StepError("site check", `the build has no page for ${missing.join(", ") || "any route"}`);
  }
  return routes;
}
