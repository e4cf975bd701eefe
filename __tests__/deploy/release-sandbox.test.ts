/**
 * The build's sandbox (deploy/release/sandbox.ts) on a small release root made here, without git or a
 * real build: a commit whose content check (its package.json's script), run as a release runs it, as
 * the release user, tries to read the settings (the repository's token), the mirror (a draft) and
 * another release, to write into the live release, its packages and the packages' store, to signal the
 * runner and to reach a server on loopback: each attempt fails, it can write its own folder, and the
 * rest of the release root is byte for byte as it was. A commit with a new lockfile gets its packages
 * from its `npm ci` (a stand-in here: no network) into a new store entry, and that install can write
 * nothing else either. And the sandbox fails closed: no bubblewrap, a bubblewrap that hides nothing,
 * or one that cannot start (as under a unit with ProtectKernelTunables=) stop the release with what
 * to do. release.test.ts runs the same attempts in a real release.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { storeEntry } from "../../deploy/release/dependencies";
import { paths } from "../../deploy/release/layout";
import { chownTree, releaseUser, type ReleaseUser } from "./support/release-user";
import { projectRoot } from "./support/stack";

jest.setTimeout(120_000);

const isRoot = process.getuid!() === 0;
const TOKEN = `ghp_${crypto.randomBytes(12).toString("hex")}`;
const DRAFT = `draft-${crypto.randomBytes(6).toString("hex")}`;
const LIVE = "20261202T000000Z-bbbbbbb";
const OLDER = "20261201T000000Z-aaaaaaa";
const SCRIPT = path.join(projectRoot, "__tests__/deploy/support/sandbox-steps.ts");

let base: string;
let nodeDir: string;
let user: ReleaseUser;
let loopback: http.Server;
let port: number;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-sandbox-"));
  fs.chmodSync(base, 0o755);
  user = releaseUser();
  // The release user's own Node (the one running the tests may be under root's home).
  nodeDir = path.join(base, "node");
  fs.mkdirSync(nodeDir);
  fs.copyFileSync(process.execPath, path.join(nodeDir, "node"));
  fs.chmodSync(path.join(nodeDir, "node"), 0o755);
  fs.mkdirSync(path.join(base, "home"));
  chownTree(path.join(base, "home"), user);
  loopback = http.createServer((req, res) => res.end("reached\n"));
  await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
  port = (loopback.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => loopback?.close(resolve));
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** The support script as the release user: exit code, output, and its last JSON line. */
function asReleaseUser(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(path.join(nodeDir, "node"), ["--import", "tsx", SCRIPT, ...args], {
    cwd: projectRoot,
    encoding: "utf8",
    timeout: 90_000,
    env: {
      PATH: `${nodeDir}:/usr/local/bin:/usr/bin:/bin`,
      HOME: path.join(base, "home"),
      TSX_DISABLE_CACHE: "1",
      GATSBY_TELEMETRY_DISABLED: "1",
      ...env,
    },
    ...(isRoot ? { uid: user.uid, gid: user.gid } : {}),
  });
  const output = `${result.stdout}${result.stderr}`;
  const last = result.stdout.trim().split("\n").at(-1) ?? "";
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(last) as Record<string, unknown>;
  } catch {
    // not a JSON line: the output says why
  }
  return { code: result.status, output, json };
}

const LOCK = `${JSON.stringify({ name: "site", lockfileVersion: 3, packages: { "": { name: "site" } } }, null, 2)}\n`;

/** The commit's attempts, one line each in attempts.txt of its own folder: "denied …" or "ALLOWED …". */
function hostileScript(root: string, entry: string): string {
  const live = path.join(root, "releases", LIVE);
  const reach = `require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  return `#!/bin/sh
# Run twice (a second sandboxed step follows the first): the second run's outcomes apart.
out="$PWD/attempts.txt"
if [ -e "$out" ]; then out="$PWD/attempts-again.txt"; fi
: > "$out"
try() { what="$1"; shift; if "$@" >/dev/null 2>&1; then echo "ALLOWED $what" >> "$out"; else echo "denied $what" >> "$out"; fi; }
try "read the settings" cat '${root}/shared/release.env'
try "read the mirror's draft" cat '${root}/shared/repo.git/refs/heads/cms/${DRAFT}'
try "list the mirror" ls '${root}/shared/repo.git'
try "read another release" cat '${root}/releases/${OLDER}/.release.json'
try "read the live release" cat '${live}/public/home/index.html'
try "write into the live release" sh -c "echo hacked >> '${live}/public/home/index.html'"
try "add a file to the live release" touch '${live}/public/planted.html'
try "write through current" sh -c "echo hacked >> '${root}/current/public/home/index.html'"
try "write into its own packages" sh -c "echo hacked >> node_modules/left-pad/index.js"
try "add a package to its own packages" mkdir node_modules/planted
try "write into the packages' store" sh -c "echo hacked >> '${entry}/node_modules/left-pad/index.js'"
try "signal the runner" kill -0 "$RUNNER_PID"
try "reach a server on loopback" node -e "${reach}"
try "see /run (D-Bus, to ask for a restart)" test -d /run
echo "its own" > own-file.txt && echo "wrote its own folder" >> "$out"
# Its own folder is its own: with RELINK set, its node_modules becomes a link to shared/'s settings,
# for the next step's sandbox to be tricked into showing shared/.
if [ -n "$RELINK" ]; then rm -f node_modules && ln -s '${root}/shared/release.env' node_modules; fi
`;
}

const ATTEMPTS = [
  "read the settings",
  "read the mirror's draft",
  "list the mirror",
  "read another release",
  "read the live release",
  "write into the live release",
  "add a file to the live release",
  "write through current",
  "write into its own packages",
  "add a package to its own packages",
  "write into the packages' store",
  "signal the runner",
  "reach a server on loopback",
  "see /run (D-Bus, to ask for a restart)",
];

/**
 * A release root as a server has it: the settings and the mirror (700), two releases, the live one
 * linking to its packages in the store, and in build/ the new commit, with `lock` as its lockfile.
 */
function serverRoot(name: string, lock = LOCK): { root: string; entry: string } {
  const root = path.join(base, name);
  const shared = path.join(root, "shared");
  fs.mkdirSync(path.join(shared, "repo.git", "refs", "heads", "cms"), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.join(shared, "repo.git"), 0o700);
  fs.writeFileSync(path.join(shared, "repo.git", "HEAD"), "ref: refs/heads/main\n");
  fs.writeFileSync(path.join(shared, "repo.git", "refs", "heads", "cms", DRAFT), `${"1".repeat(40)}\n`);
  fs.writeFileSync(
    path.join(shared, "release.env"),
    `RELEASE_REPO=https://x-access-token:${TOKEN}@git.example.com/owner/site.git\nSITE_URL=https://www.example.com\n`,
    { mode: 0o600 },
  );
  for (const id of [OLDER, LIVE]) {
    const dir = path.join(root, "releases", id);
    fs.mkdirSync(path.join(dir, "public", "home"), { recursive: true });
    fs.writeFileSync(path.join(dir, "public", "home", "index.html"), `<h1>${id}</h1>\n`);
    fs.writeFileSync(path.join(dir, ".release.json"), `${JSON.stringify({ id, commit: id })}\n`);
    fs.writeFileSync(path.join(dir, "package-lock.json"), LOCK);
  }
  const live = path.join(root, "releases", LIVE);
  const entry = storeEntry(root, live, ".");
  fs.mkdirSync(path.join(entry, "node_modules", "left-pad"), { recursive: true });
  fs.writeFileSync(path.join(entry, "node_modules", "left-pad", "index.js"), "module.exports = 'live';\n");
  fs.symlinkSync(path.join(entry, "node_modules"), path.join(live, "node_modules"));
  fs.symlinkSync(live, path.join(root, "current"));
  const build = path.join(root, "build");
  fs.mkdirSync(build);
  fs.writeFileSync(path.join(build, "package-lock.json"), lock);
  fs.writeFileSync(path.join(build, "hostile.sh"), hostileScript(root, entry));
  const scripts = { "check:content": "sh hostile.sh" };
  fs.writeFileSync(path.join(build, "package.json"), `${JSON.stringify({ name: "site", scripts }, null, 2)}\n`);
  chownTree(root, user);
  return { root, entry };
}

/** Every file, folder and link under `dir` but `except`: its path, kind, mode, and bytes or target. */
function tree(dir: string, except: string[] = []): string {
  const hash = crypto.createHash("sha256");
  const walk = (at: string) => {
    for (const name of fs.readdirSync(at).sort()) {
      const file = path.join(at, name);
      if (except.includes(file)) continue;
      const stat = fs.lstatSync(file);
      const rel = path.relative(dir, file);
      if (stat.isSymbolicLink()) hash.update(`link ${rel} ${fs.readlinkSync(file)}\n`);
      else if (stat.isDirectory()) {
        hash.update(`dir ${rel} ${stat.mode}\n`);
        walk(file);
      } else hash.update(`file ${rel} ${stat.mode} ${stat.size} ${stat.mtimeMs}\n`).update(fs.readFileSync(file));
    }
  };
  walk(dir);
  return hash.digest("hex");
}

/** attempts.txt of the commit's folder, as lines. */
const attempts = (root: string, file = "attempts.txt") =>
  fs
    .readFileSync(path.join(root, "build", file), "utf8")
    .trim()
    .split("\n");

test("a commit's content check in its sandbox: every attempt on the settings, the mirror, other releases, the packages and the runner fails; the rest of the root is byte for byte as it was", () => {
  const { root, entry } = serverRoot("hostile");
  // Without a sandbox, the release user reads and writes all of it.
  const plain = spawnSync("cat", [path.join(root, "shared", "release.env")], {
    encoding: "utf8",
    ...(isRoot ? { uid: user.uid, gid: user.gid } : {}),
  });
  expect(plain.stdout).toContain(TOKEN);
  const outside = [path.join(root, "build"), paths(root).buildTmp];
  const before = tree(root, outside);

  const result = asReleaseUser(["steps", root], { RELINK: "1" });
  expect(result).toMatchObject({ code: 0 });
  // Its packages are the live release's, shared: a link to the same store entry, nothing copied.
  expect(result.json).toEqual({ dependencies: { ".": `shared: ${path.relative(root, entry)}` } });

  expect(attempts(root)).toEqual([...ATTEMPTS.map((what) => `denied ${what}`), "wrote its own folder"]);
  // The next step, after the commit pointed its node_modules at shared/, sees no more of it.
  expect(fs.readlinkSync(path.join(root, "build", "node_modules"))).toBe(path.join(root, "shared", "release.env"));
  expect(attempts(root, "attempts-again.txt")).toEqual([
    ...ATTEMPTS.map((what) => `denied ${what}`),
    "wrote its own folder",
  ]);
  expect(fs.readFileSync(path.join(root, "build", "own-file.txt"), "utf8")).toBe("its own\n");
  expect(result.output).not.toContain(TOKEN);
  expect(tree(root, outside)).toBe(before);
  expect(fs.readFileSync(path.join(entry, "node_modules", "left-pad", "index.js"), "utf8")).toBe(
    "module.exports = 'live';\n",
  );
});

test("without the sandbox the same commit reads and writes them: the attempts are real", () => {
  const { root } = serverRoot("unsandboxed");
  // A process of the release user's, standing for the runner.
  const runner = spawn("sleep", ["60"], { ...(isRoot ? { uid: user.uid, gid: user.gid } : {}), stdio: "ignore" });
  const result = spawnSync("sh", ["hostile.sh"], {
    cwd: path.join(root, "build"),
    encoding: "utf8",
    env: { PATH: `${nodeDir}:/usr/bin:/bin`, RUNNER_PID: String(runner.pid) },
    ...(isRoot ? { uid: user.uid, gid: user.gid } : {}),
  });
  runner.kill("SIGKILL");
  expect(result.status).toBe(0);
  // No node_modules of its own here (the release links it): nothing to write into.
  const denied = ["write into its own packages", "add a package to its own packages"];
  expect(attempts(root)).toEqual([
    ...ATTEMPTS.map((what) => `${denied.includes(what) ? "denied" : "ALLOWED"} ${what}`),
    "wrote its own folder",
  ]);
});

test("a new lockfile: its npm ci, in the sandbox, fills a new store entry and writes nothing else; the live release's entry stays", () => {
  const lock = LOCK.replace('"name": "site"', '"name": "site", "version": "2.0.0"');
  const { root, entry } = serverRoot("new-lockfile", lock);
  const live = path.join(root, "releases", LIVE);
  const outside = [path.join(root, "build"), paths(root).buildTmp, paths(root).npmCache];
  const before = tree(root, [...outside, paths(root).packages]);
  const liveEntry = tree(entry);
  // npm ci's stand-in: installs one package where npm would, and tries what a package's install script could.
  const npmCi = [
    "mkdir -p node_modules/left-pad",
    "echo \"module.exports = 'new';\" > node_modules/left-pad/index.js",
    "out=$PWD/npm-ci.txt",
    'touch "$npm_config_cache/used-by-npm-ci"',
    `(cat '${root}/shared/release.env' >/dev/null 2>&1 && echo 'ALLOWED read the settings' || echo 'denied read the settings') >> "$out"`,
    `(echo hacked >> '${entry}/node_modules/left-pad/index.js' 2>/dev/null && echo 'ALLOWED write the live packages' || echo 'denied write the live packages') >> "$out"`,
    `(touch '${live}/public/planted.html' 2>/dev/null && echo 'ALLOWED write the live release' || echo 'denied write the live release') >> "$out"`,
  ].join("; ");
  const result = asReleaseUser(["steps", root], { RELEASE_NPM_CI: npmCi });
  expect(result).toMatchObject({ code: 0, json: { dependencies: { ".": "npm ci" } } });
  expect(attempts(root, "npm-ci.txt")).toEqual([
    "denied read the settings",
    "denied write the live packages",
    "denied write the live release",
  ]);
  // npm's cache is the release root's own (shared/npm-cache), not the release user's HOME.
  expect(fs.existsSync(path.join(paths(root).npmCache, "used-by-npm-ci"))).toBe(true);
  const fresh = storeEntry(root, path.join(root, "build"), ".");
  expect(fresh).not.toBe(entry);
  expect(fs.readlinkSync(path.join(root, "build", "node_modules"))).toBe(path.join(fresh, "node_modules"));
  expect(fs.readFileSync(path.join(fresh, "node_modules", "left-pad", "index.js"), "utf8")).toBe(
    "module.exports = 'new';\n",
  );
  // The content check then ran on it, read-only, as on the shared one.
  expect(attempts(root)).toContain("denied write into its own packages");
  expect(fs.readdirSync(paths(root).packages).sort()).toEqual([path.basename(entry), path.basename(fresh)].sort());
  expect(tree(entry)).toBe(liveEntry);
  expect(tree(root, [...outside, paths(root).packages])).toBe(before);
});

test("nginx -t runs in the sandbox too: what it loads (a module, an OpenSSL engine the configuration names) sees only the release", () => {
  const { root } = serverRoot("nginx-test");
  const live = path.join(root, "releases", LIVE);
  const before = tree(root, [path.join(root, "build"), paths(root).buildTmp]);
  // The configured command stands for nginx -t and what it would load.
  const tries = [
    ["read the settings", `cat '${root}/shared/release.env'`],
    ["write into the live release", `echo hacked >> '${live}/public/home/index.html'`],
    ["test its own copy", "test -f {conf}/nginx.conf"],
  ].map(
    ([what, command]) => `if (${command}) >/dev/null 2>&1; then echo 'did ${what}'; else echo 'could not ${what}'; fi`,
  );
  const result = asReleaseUser(["nginx-test", root], { RELEASE_NGINX_TEST: `${tries.join("; ")}; exit 3` });
  expect(result.json.step).toBe("nginx -t");
  expect(String(result.json.message).split("\n")).toEqual([
    "could not read the settings",
    "could not write into the live release",
    "did test its own copy",
  ]);
  expect(result.output).not.toContain(TOKEN);
  expect(tree(root, [path.join(root, "build"), paths(root).buildTmp])).toBe(before);
});

describe("it fails closed", () => {
  test("without bubblewrap: the release stops, saying to install it", () => {
    const { root } = serverRoot("no-bwrap");
    const result = asReleaseUser(["probe", root, "/nonexistent/bwrap"]);
    expect(result.code).toBe(1);
    expect(result.json.step).toBe("sandbox");
    expect(result.json.message).toContain("bubblewrap (/nonexistent/bwrap) is not installed");
    expect(result.json.message).toContain("As root: apt-get install bubblewrap");
    expect(result.json.message).toContain("no release is built without it");
  });

  test("a bubblewrap that hides nothing (runs the command as it is) is refused", () => {
    const { root } = serverRoot("fake-bwrap");
    const fake = path.join(base, "bwrap-that-hides-nothing");
    fs.writeFileSync(fake, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n', { mode: 0o755 });
    const result = asReleaseUser(["probe", root, fake]);
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({ step: "sandbox" });
    expect(result.json.message).toContain(`sandbox: ${path.join(root, "shared")} is visible`);
    expect(result.json.message).toContain("no release is built without it");
  });

  test("the real one, as the release user: the sandbox is in effect", () => {
    const { root } = serverRoot("real-bwrap");
    expect(asReleaseUser(["probe", root])).toMatchObject({ code: 0, output: "sandbox ok\n" });
  });

  // systemd's ProtectKernelTunables= mounts over /proc/sys, as this does: the kernel then refuses a
  // sandbox a /proc of its own. Making the mount takes root.
  (isRoot ? test : test.skip)(
    "under mounts over /proc (a unit with ProtectKernelTunables=), it cannot start, and says why",
    () => {
      const { root } = serverRoot("proc-covered");
      const node = path.join(nodeDir, "node");
      const inner = [
        "mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys",
        `exec setpriv --reuid ${user.uid} --regid ${user.gid} --clear-groups env PATH=${nodeDir}:/usr/bin:/bin HOME=${base}/home TSX_DISABLE_CACHE=1 ${node} --import tsx ${SCRIPT} probe ${root}`,
      ].join(" && ");
      const result = spawnSync("unshare", ["-m", "--propagation", "private", "sh", "-c", inner], {
        cwd: projectRoot,
        encoding: "utf8",
      });
      const json = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { step?: string; message?: string };
      expect({ code: result.status, step: json.step }).toEqual({ code: 1, step: "sandbox" });
      expect(json.message).toContain("could not start the build's sandbox");
      expect(json.message).toContain("Can't mount proc");
      expect(json.message).toContain("a unit without ProtectKernelTunables= and ProtectKernelLogs=");
    },
  );

  test("the release units leave the kernel's namespaces and /proc to the sandbox", () => {
    for (const name of ["cyrus-release.service", "cyrus-release-poll.service"]) {
      const text = fs.readFileSync(path.join(projectRoot, "deploy", "systemd", name), "utf8");
      const set = (key: string) => new RegExp(`^${key}=(?!no\\s*$)`, "m").test(text);
      expect({ name, tunables: set("ProtectKernelTunables"), logs: set("ProtectKernelLogs") }).toEqual({
        name,
        tunables: false,
        logs: false,
      });
      expect({ name, namespaces: set("RestrictNamespaces"), users: set("PrivateUsers") }).toEqual({
        name,
        namespaces: false,
        users: false,
      });
    }
  });
});
