/**
 * A server's first release (deploy/release/first-release; docs/release-runner.md, "The first release"):
 * run as the release user from a root-owned copy of the script, with RELEASE_REPO holding a token in
 * shared/release.env, against a git host over HTTP that wants it (./support/git-http-host.ts). The
 * repository is a small project of its own whose `npm run release` stands for the runner: it writes
 * down where it ran and what it was given, and ends as told (the runner's own handling of the token
 * is release-credentials.test.ts's; a real first release, release.test.ts's). No build, no download.
 *
 * Tried as someone who wants the token or the drafts would: while it runs, every process's command
 * line is read again and again; afterwards every file under the release root and the bootstrap
 * folder's path is read for the token (only shared/release.env may hold it), the bootstrap folder is
 * gone (after a failed release too), and another user (nobody) can open no ref or pack of the
 * mirror, the drafts' included. And as a commit's own install script would: its preinstall (run by
 * npm ci, in bubblewrap's sandbox) tries to read and change the settings and the mirror and to write
 * the release user's home, and writes down what it got.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../support/serve";
import { sampleCommandLines } from "./support/cmdline-sampler";
import { startGitHost, type GitHost } from "./support/git-http-host";
import { chownTree, releaseUser, type ReleaseUser } from "./support/release-user";
import { DRAFT, filesHoldingSecrets, git, SECRETS, TOKEN, USERNAME } from "./support/repository-token";

jest.setTimeout(120_000);

const isRoot = process.getuid!() === 0;

/** What the stand-in runner writes down (shared/first-release-report.json). */
interface Report {
  cwd: string;
  args: string[];
  files: string[];
  envHoldsSecret: boolean;
  releaseRoot: string;
  tsxCacheOff: string;
  seed: string;
  bootstrapMode: string;
  bootstrapOwner: number;
  /** What the commit's preinstall script got (probe-outcomes.json, in its own folder). */
  probe?: Probe;
}

interface Probe {
  outcomes: Record<string, string>;
  home: string;
  tmp: string;
  cache: string;
  releaseRepoInEnv: boolean;
}

let base: string;
let host: GitHost;
let user: ReleaseUser;
let script: string;
let nodeDir: string;
let home: string;
let head = "";
let editor: string;

/** The stand-in for `npm run release`: where it ran, with what, and nothing more. */
const STUB = `const fs = require("node:fs");
const path = require("node:path");
const secrets = JSON.parse(Buffer.from(process.env.STUB_SECRETS_B64 || "W10=", "base64").toString());
const report = {
  cwd: process.cwd(),
  args: process.argv.slice(2),
  files: fs.readdirSync(process.cwd()).sort(),
  envHoldsSecret: Object.entries(process.env).some(([k, v]) => k !== "STUB_SECRETS_B64" && secrets.some((s) => String(v).includes(s))),
  releaseRoot: process.env.RELEASE_ROOT,
  tsxCacheOff: process.env.TSX_DISABLE_CACHE,
  seed: process.env.RELEASE_SEED_NODE_MODULES,
  bootstrapMode: (fs.statSync(path.dirname(process.cwd())).mode & 0o777).toString(8),
  bootstrapOwner: fs.statSync(path.dirname(process.cwd())).uid,
  probe: fs.existsSync("probe-outcomes.json") ? JSON.parse(fs.readFileSync("probe-outcomes.json", "utf8")) : undefined,
};
fs.writeFileSync(path.join(process.env.RELEASE_ROOT, "shared", "first-release-report.json"), JSON.stringify(report));
process.exit(Number(process.env.STUB_EXIT || 0));
`;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-first-release-"));
  fs.chmodSync(base, 0o755);
  const projects = path.join(base, "host");
  fs.mkdirSync(projects);
  git(projects, ["init", "--quiet", "--bare", "--initial-branch=main", "site.git"]);
  editor = path.join(base, "editor");
  git(base, ["clone", "--quiet", path.join(projects, "site.git"), editor]);
  git(editor, ["checkout", "--quiet", "-b", "main"]);
  const pkg = { name: "tiny-site", version: "1.0.0", private: true, scripts: { release: "node release-stub.js" } };
  fs.writeFileSync(path.join(editor, "package.json"), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(
    path.join(editor, "package-lock.json"),
    JSON.stringify({
      name: "tiny-site",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: { "": { name: "tiny-site", version: "1.0.0" } },
    }),
  );
  fs.writeFileSync(path.join(editor, "release-stub.js"), STUB);
  git(editor, ["add", "."]);
  git(editor, ["commit", "--quiet", "-m", "The site"]);
  git(editor, ["push", "--quiet", "origin", "main"]);
  head = git(editor, ["rev-parse", "HEAD"]);
  // The studio's unpublished draft: a branch of its own.
  git(editor, ["checkout", "--quiet", "-b", DRAFT]);
  fs.writeFileSync(path.join(editor, "draft.md"), "An unpublished draft\n");
  git(editor, ["add", "."]);
  git(editor, ["commit", "--quiet", "-m", "Create Posts “draft”"]);
  git(editor, ["push", "--quiet", "origin", DRAFT]);
  host = await startGitHost({ projectRoot: projects, username: USERNAME, token: TOKEN, delayMs: 100 });

  user = releaseUser();
  // The root-owned copy of the project that sets the server up (/opt/cyrus-setup): its script.
  script = path.join(base, "setup", "first-release");
  fs.mkdirSync(path.dirname(script));
  fs.copyFileSync(path.join(projectRoot, "deploy", "release", "first-release"), script);
  fs.chmodSync(script, 0o755);
  // Node for the release user (root's may sit in its home) and a home of its own.
  nodeDir = path.join(base, "node");
  fs.mkdirSync(nodeDir);
  fs.copyFileSync(process.execPath, path.join(nodeDir, "node"));
  fs.chmodSync(path.join(nodeDir, "node"), 0o755);
  home = path.join(base, "home");
  fs.mkdirSync(home);
  chownTree(home, user);
});

afterAll(async () => {
  await host?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** A release root as "Setting up a server" makes it: shared/ 755, release.env 600 with the token in RELEASE_REPO. */
function serverRoot(name: string): string {
  const root = path.join(base, name);
  fs.mkdirSync(path.join(root, "shared"), { recursive: true });
  const repo = `http://${USERNAME}:${TOKEN}@${new URL(host.origin).host}/site.git`;
  fs.writeFileSync(
    path.join(root, "shared", "release.env"),
    `RELEASE_REPO=${repo}\nRELEASE_BRANCH=main\nSITE_URL=https://www.example.com\n`,
    { mode: 0o600 },
  );
  fs.chmodSync(path.join(root, "shared", "release.env"), 0o600);
  chownTree(root, user);
  return root;
}

/** first-release as the release user: its exit code and output. */
function firstRelease(root: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | string; output: string }> {
  const child = spawn(script, ["--root", root], {
    cwd: base,
    env: {
      PATH: `${nodeDir}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      STUB_SECRETS_B64: Buffer.from(JSON.stringify(SECRETS)).toString("base64"),
      npm_config_update_notifier: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    ...(isRoot ? { uid: user.uid, gid: user.gid } : {}),
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? "unknown", output });
    }),
  );
}

const report = (root: string) =>
  JSON.parse(fs.readFileSync(path.join(root, "shared", "first-release-report.json"), "utf8")) as Report;

describe("the first release, with a token in RELEASE_REPO", () => {
  let root = "";

  test("fetches into the runner's mirror and runs the branch's own release from a private bootstrap folder", async () => {
    root = serverRoot("root");
    const sampler = sampleCommandLines(SECRETS);
    const before = { ...host.counts };
    const result = await firstRelease(root);
    const sampled = await sampler.stop();
    if (result.code !== 0) throw new Error(`exit ${result.code}:\n${result.output}`);
    expect(result.output).toContain("first-release: the first release is live; the bootstrap folder is removed");

    // The token on no command line, while git talked to the host by the URL without it.
    expect(sampled.leaks).toEqual([]);
    expect(
      sampled.git.filter((line) => line.includes("git-remote-http") && line.includes(`${host.origin}/site.git`)),
    ).not.toEqual([]);
    expect(host.counts.challenged).toBeGreaterThan(before.challenged);
    expect(host.counts.served).toBeGreaterThan(before.served);
    expect(host.counts.refused).toBe(before.refused);

    // The branch's own `npm run release`, of the commit fetched, in a folder of the release root that
    // is not shared/ (the service's user reaches shared/), with the commit's files and no .git.
    const seen = report(root);
    expect(seen.args).toEqual(["--commit", head]);
    expect(path.dirname(path.dirname(seen.cwd))).toBe(root);
    expect(path.basename(path.dirname(seen.cwd))).toMatch(/^bootstrap\.[A-Za-z0-9]{6}$/);
    expect(seen.files).toEqual(["package-lock.json", "package.json", "release-stub.js"]);
    // The release user's alone while it is there: no other user lists or reads it.
    expect({ mode: seen.bootstrapMode, owner: seen.bootstrapOwner }).toEqual({ mode: "700", owner: user.uid });
    expect(seen.envHoldsSecret).toBe(false);
    expect(seen.releaseRoot).toBe(root);
    expect(seen.tsxCacheOff).toBe("1");
    // The release copies the packages installed there (npm ci found none to install here).
    expect(seen.seed).toBe(seen.cwd);

    // Removed once the release is live; nothing under the root or that path holds the token.
    expect(fs.existsSync(path.dirname(seen.cwd))).toBe(false);
    expect(fs.readdirSync(root).filter((name) => name.startsWith("bootstrap"))).toEqual([]);
    expect(filesHoldingSecrets(root, [path.join(root, "shared", "release.env")])).toEqual([]);
    const mirror = path.join(root, "shared", "repo.git");
    expect(git(root, ["--git-dir", mirror, "config", "--get", "remote.origin.url"])).toBe(`${host.origin}/site.git`);
    expect(fs.statSync(mirror).mode & 0o777).toBe(0o700);
    expect(fs.statSync(mirror).uid).toBe(user.uid);
    // The drafts are in the mirror, as the runner keeps them.
    expect(git(root, ["--git-dir", mirror, "for-each-ref", "--format=%(refname)", "refs/heads/cms"])).toBe(
      `refs/heads/${DRAFT}`,
    );
  });

  (isRoot ? test : test.skip)(
    "another user (nobody) can open no ref or pack of the mirror, the drafts' included",
    () => {
      const nobody = {
        uid: Number(spawnSync("id", ["-u", "nobody"]).stdout),
        gid: Number(spawnSync("id", ["-g", "nobody"]).stdout),
      };
      const mirror = path.join(root, "shared", "repo.git");
      const files: string[] = [];
      const walk = (folder: string) => {
        for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
          const file = path.join(folder, entry.name);
          if (entry.isDirectory()) walk(file);
          else files.push(file);
        }
      };
      walk(mirror);
      const refsAndPacks = files.filter((file) =>
        /(^|\/)(packed-refs|refs\/.+|objects\/.+|config|HEAD|FETCH_HEAD)$/.test(path.relative(mirror, file)),
      );
      expect(refsAndPacks.some((file) => /objects\/pack\/.+\.pack$/.test(file))).toBe(true);
      const drafts = files.filter(
        (file) =>
          path.relative(mirror, file).startsWith("refs/heads/cms/") ||
          fs.readFileSync(file, "latin1").includes(`refs/heads/${DRAFT}`),
      );
      expect(drafts).not.toEqual([]);
      const readable = [...refsAndPacks, ...drafts, path.join(root, "shared", "release.env")].filter(
        (file) => spawnSync("cat", ["--", file], { ...nobody }).status === 0,
      );
      expect(readable).toEqual([]);
      expect(spawnSync("ls", [mirror], { ...nobody, encoding: "utf8" }).stderr).toContain("Permission denied");
    },
  );

  test("a release that fails: the bootstrap folder is removed too, the token still in no file; run again, it fetches into the same mirror", async () => {
    const before = { ...host.counts };
    const result = await firstRelease(root, { STUB_EXIT: "3" });
    expect(result.code).toBe(1);
    expect(result.output).toContain("first-release: the release failed (exit 3); the bootstrap folder is removed");
    const seen = report(root);
    expect(fs.existsSync(path.dirname(seen.cwd))).toBe(false);
    expect(fs.readdirSync(root).filter((name) => name.startsWith("bootstrap"))).toEqual([]);
    expect(filesHoldingSecrets(root, [path.join(root, "shared", "release.env")])).toEqual([]);
    expect(host.counts.served).toBeGreaterThan(before.served);
    expect(host.counts.refused).toBe(before.refused);
  });
});

test("with a test seed (RELEASE_SEED_NODE_MODULES), the bootstrap uses that checkout's packages and so does the release", async () => {
  const root = serverRoot("root-seed");
  const seed = path.join(base, "seed");
  fs.mkdirSync(path.join(seed, "node_modules", "some-package"), { recursive: true });
  fs.writeFileSync(path.join(seed, "node_modules", "some-package", "index.js"), "module.exports = 1;\n");
  chownTree(seed, user);
  const result = await firstRelease(root, { RELEASE_SEED_NODE_MODULES: seed });
  if (result.code !== 0) throw new Error(`exit ${result.code}:\n${result.output}`);
  const seen = report(root);
  expect(seen.files).toEqual(["node_modules", "package-lock.json", "package.json", "release-stub.js"]);
  expect(seen.seed).toBe(seed);
  expect(fs.existsSync(path.dirname(seen.cwd))).toBe(false);
  expect(fs.readFileSync(path.join(seed, "node_modules", "some-package", "index.js"), "utf8")).toBe(
    "module.exports = 1;\n",
  );
});

/**
 * A commit's preinstall script, which npm ci runs: it tries the settings, the mirror and the release
 * user's home (PROBE_HOME) at their paths on the server, and writes down each outcome in its own folder.
 */
const PROBE = `const fs = require("node:fs");
const path = require("node:path");
const site = process.cwd();
const root = path.dirname(path.dirname(site));
const settings = path.join(root, "shared", "release.env");
const mirror = path.join(root, "shared", "repo.git");
const attempt = (what) => { try { return what(); } catch (error) { return error.code || String(error); } };
const outcomes = {
  ["read " + settings]: attempt(() => "read " + fs.readFileSync(settings).length + " bytes"),
  ["list " + mirror]: attempt(() => "listed " + fs.readdirSync(mirror).join(",")),
  ["read " + path.join(mirror, "config")]: attempt(() => "read " + fs.readFileSync(path.join(mirror, "config")).length + " bytes"),
  ["overwrite " + settings]: attempt(() => { fs.writeFileSync(settings, "RELEASE_REPO=https://elsewhere.example/\\n", { flag: "r+" }); return "written"; }),
  ["write " + path.join(mirror, "hooks", "post-merge")]: attempt(() => { fs.writeFileSync(path.join(mirror, "hooks", "post-merge"), "#!/bin/sh\\n", { mode: 0o755 }); return "written"; }),
  ["write " + path.join(process.env.PROBE_HOME, ".profile")]: attempt(() => { fs.writeFileSync(path.join(process.env.PROBE_HOME, ".profile"), "x\\n"); return "written"; }),
};
fs.writeFileSync(path.join(site, "probe-outcomes.json"), JSON.stringify({
  outcomes,
  home: process.env.HOME,
  tmp: process.env.TMPDIR,
  cache: process.env.npm_config_cache,
  releaseRepoInEnv: "RELEASE_REPO" in process.env,
}));
`;

test("npm ci runs the commit's install scripts in the sandbox: the settings, the mirror and the release user's home are not there to read or write", async () => {
  git(editor, ["checkout", "--quiet", "-b", "with-preinstall", "main"]);
  const pkg = JSON.parse(fs.readFileSync(path.join(editor, "package.json"), "utf8"));
  pkg.scripts.preinstall = "node probe.js";
  fs.writeFileSync(path.join(editor, "package.json"), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(path.join(editor, "probe.js"), PROBE);
  git(editor, ["add", "."]);
  git(editor, ["commit", "--quiet", "-m", "An install script"]);
  git(editor, ["push", "--quiet", "origin", "with-preinstall"]);
  const root = serverRoot("root-probe");
  const settings = path.join(root, "shared", "release.env");
  const before = fs.readFileSync(settings, "utf8");
  const repo = before.match(/^RELEASE_REPO=(.*)$/m)![1]!;
  // RELEASE_REPO given in the environment too (it holds the token): the sandbox's is without it.
  const result = await firstRelease(root, { RELEASE_BRANCH: "with-preinstall", RELEASE_REPO: repo, PROBE_HOME: home });
  if (result.code !== 0) throw new Error(`exit ${result.code}:\n${result.output}`);
  const seen = report(root);
  const mirror = path.join(root, "shared", "repo.git");
  // Each path tried is there on the server, and the script got none of them.
  expect(seen.probe?.outcomes).toEqual({
    [`read ${settings}`]: "ENOENT",
    [`list ${mirror}`]: "ENOENT",
    [`read ${mirror}/config`]: "ENOENT",
    [`overwrite ${settings}`]: "ENOENT",
    [`write ${mirror}/hooks/post-merge`]: "ENOENT",
    [`write ${home}/.profile`]: "ENOENT",
  });
  expect(fs.existsSync(path.join(mirror, "config"))).toBe(true);
  expect(fs.existsSync(path.join(mirror, "hooks"))).toBe(true);
  expect(fs.readFileSync(settings, "utf8")).toBe(before);
  expect(fs.existsSync(path.join(mirror, "hooks", "post-merge"))).toBe(false);
  expect(fs.existsSync(path.join(home, ".profile"))).toBe(false);
  expect(SECRETS.some((secret) => JSON.stringify(seen.probe).includes(secret))).toBe(false);
  // A private HOME and temporary folder in the bootstrap folder, npm's cache the runner's.
  const bootstrap = path.dirname(seen.cwd);
  expect(seen.probe!.home.startsWith(`${bootstrap}/`)).toBe(true);
  expect(seen.probe!.tmp.startsWith(`${bootstrap}/`)).toBe(true);
  expect(seen.probe!.cache).toBe(path.join(root, "shared", "npm-cache"));
  expect(seen.probe!.releaseRepoInEnv).toBe(false);
  expect(fs.readdirSync(root).sort()).toEqual(["shared"]);
  expect(fs.readdirSync(path.join(root, "shared")).sort()).toEqual([
    "first-release-report.json",
    "npm-cache",
    "release.env",
    "repo.git",
  ]);
});

test("without bubblewrap it stops before fetching, saying what to install", async () => {
  const root = serverRoot("root-no-bwrap");
  // A PATH with what the script needs before it looks for bwrap, and no bwrap.
  const bin = path.join(base, "bin-without-bwrap");
  fs.mkdirSync(bin);
  for (const name of ["bash", "id"])
    fs.symlinkSync(spawnSync("which", [name], { encoding: "utf8" }).stdout.trim(), path.join(bin, name));
  const result = await firstRelease(root, { PATH: `${nodeDir}:${bin}` });
  expect(result.code).toBe(1);
  expect(result.output).toContain("first-release: bubblewrap (bwrap) is not installed");
  expect(result.output).toContain("As root: apt-get install bubblewrap");
  expect(fs.readdirSync(root)).toEqual(["shared"]);
  expect(fs.readdirSync(path.join(root, "shared"))).toEqual(["release.env"]);
});

(isRoot ? test : test.skip)("as root it refuses, and writes nothing", () => {
  const root = serverRoot("root-as-root");
  const result = spawnSync(script, ["--root", root], { encoding: "utf8", env: { PATH: process.env.PATH } });
  expect(result.status).toBe(4);
  expect(result.stderr).toContain("first-release: refusing to run as root");
  expect(fs.readdirSync(path.join(root, "shared"))).toEqual(["release.env"]);
});

test("a settings file others may read is refused, with the chmod to run", async () => {
  const root = serverRoot("root-open");
  const file = path.join(root, "shared", "release.env");
  fs.chmodSync(file, 0o644);
  const result = await firstRelease(root);
  expect(result.code).toBe(1);
  expect(result.output).toContain(`Run: chmod 600 ${file}`);
  expect(SECRETS.some((secret) => result.output.includes(secret))).toBe(false);
  expect(fs.readdirSync(path.join(root, "shared"))).toEqual(["release.env"]);
});
