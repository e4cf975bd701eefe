/**
 * The content check, the production build and the check of its result, in the release folder.
 *
 * Build caches: Gatsby's incremental build needs the previous build's .cache (its data store, the
 * webpack and image caches) and public/ (pages and images it does not make again). .cache is moved
 * from the live release (nothing reads it once built; moved back if this release fails), public/ is
 * copied (the live release keeps serving its own). Without them the build is a cold one: slower,
 * same result.
 *
 * Both record absolute paths (webpack's module ids, the data store's file nodes): a build in a new
 * folder each time would find nothing in them. So every release is built at the same path,
 * <root>/build, and renamed to releases/<id> afterwards (a rename: no copy).
 */
import fs from "node:fs";
import path from "node:path";
import { must, run, StepError } from "./exec";

export interface Carried {
  cache: boolean;
  public: boolean;
  /** Puts .cache back where it came from (after a failure), from the folder that now holds it. */
  giveBack(holder: string): void;
}

export async function carryCaches(dir: string, previous: string | undefined): Promise<Carried> {
  const carried: Carried = { cache: false, public: false, giveBack: () => undefined };
  if (!previous) return carried;
  const cache = path.join(previous, ".cache");
  if (fs.existsSync(cache)) {
    fs.renameSync(cache, path.join(dir, ".cache"));
    carried.cache = true;
    carried.giveBack = () => {
      if (fs.existsSync(path.join(dir, ".cache")) && !fs.existsSync(cache))
        fs.renameSync(path.join(dir, ".cache"), cache);
    };
  }
  if (fs.existsSync(path.join(previous, "public"))) {
    // --reflink=auto: a copy-on-write clone where the file system has them (btrfs, XFS), else a copy.
    await must("caches", run("cp", ["-a", "--reflink=auto", path.join(previous, "public"), path.join(dir, "public")]));
    carried.public = true;
  }
  return carried;
}

export async function checkContent(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await must("content check", run("npm", ["run", "--silent", "check:content"], { cwd: dir, env }));
}

export async function build(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await must("build", run("npx", ["--no-install", "gatsby", "build"], { cwd: dir, env }));
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
 * (src/node/content/read-content.ts, which the site's tests use too), run in the release folder.
 */
export async function checkRoutes(dir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { output } = await must(
    "site check",
    run(process.execPath, ["--import", "tsx", path.join(__dirname, "list-routes.ts"), dir], {
      cwd: dir,
      env,
      quiet: true,
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
