/**
 * npm run release (deploy/release/) end to end, with real git, the real build and nginx: a first
 * release from nothing, a text change built with the first one's caches and node_modules, a commit
 * with a content error that never goes live, the list, the lock, and a rollback; then what starts a
 * release without a person: the timer's --if-moved and the push hook's note taken by --wanted. Every
 * release runs as an unprivileged user made for the tests (support/release-user.ts); as root it is refused.
 * A server set up before the move: release-upgrade.test.ts.
 */
import { execFileSync, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { readStoredLinesNow, WANTED_FILE } from "../../src/site-service";
import { freePort } from "../support/serve";
import { expectExit, startReleaseSite, type ReleaseSite, type StatusFile } from "./support/release-site";
import { projectRoot, waitFor } from "./support/stack";

const HEADING = "Welcome to Cyrus";
const CHANGED = "Welcome to Cyrus, the second release";
// The builds run on a busy 2-core CI machine: bounds, not measures.
jest.setTimeout(15 * 60_000);

let site: ReleaseSite;
const status = () =>
  JSON.parse(fs.readFileSync(path.join(site.root, "shared", "release-status.json"), "utf8")) as StatusFile;
/** The status as nginx serves it to the studio (/admin/release-status.json). */
async function servedStatus(): Promise<{ cacheControl: string | null; status: unknown }> {
  const res = await fetch(`${site.origin}/admin/release-status.json`);
  expect(res.status).toBe(200);
  return { cacheControl: res.headers.get("cache-control"), status: await res.json() };
}
/** The note of who holds the release lock (the lock itself is a transaction on release.lock.db). */
const lockFile = () => path.join(site.root, "shared", "release.lock");

beforeAll(async () => {
  site = await startReleaseSite();
});
afterAll(async () => {
  await site?.stop();
});

/** Whether the live /home shows a text (a boolean: the page is too long for a failure message). */
const homeShows = async (text: string) => (await site.page("/home")).text.includes(text);

/**
 * Whether /home shows `text` (or, with shown false, does not), asked for up to 10 s: nginx's workers
 * of before a reload may still answer for a moment after it (this process keeps its connections).
 */
async function homeShowsSoon(text: string, shown = true): Promise<boolean> {
  for (let i = 0; i < 40; i += 1) {
    if ((await homeShows(text)) === shown) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

let firstCommit = "";
let secondCommit = "";

const isRoot = process.getuid!() === 0;

// Run as root (CI), the release is refused; as anyone else there is no root to refuse.
(isRoot ? test : test.skip)("the release refuses to run as root and changes nothing", async () => {
  const result = await site.startRelease([], {}, true).done;
  expect(result.code).toBe(4);
  expect(result.output).toContain("release: refusing to run as root");
  expect(fs.existsSync(path.join(site.root, "releases"))).toBe(false);
  expect(fs.readdirSync(path.join(site.root, "shared"))).toEqual(["release.env"]);
});

test("a first release from nothing (deploy/release/first-release) builds the branch head and nginx serves it", async () => {
  const result = await site.firstRelease();
  console.log(`first release: ${result.seconds.toFixed(0)} s`);
  expectExit(result, 0);
  expect(result.output).toContain("first-release: the first release is live; the bootstrap folder is removed");
  // Built from the bootstrap folder, which is gone; nothing of it is left under the release root.
  expect(result.output).toMatch(/first-release: the files of HEAD \([0-9a-f]{12}\) in \S+\/bootstrap\.\w{6}/);
  expect(fs.readdirSync(site.root).sort()).toEqual(["current", "releases", "shared"]);
  // Built by the release's own unprivileged user, which owns every file of it.
  expect(site.user.uid).not.toBe(0);
  const live = fs.realpathSync(path.join(site.root, "current"));
  for (const file of [live, path.join(live, "public", "home", "index.html"), path.join(site.root, "shared")]) {
    expect({ file, uid: fs.statSync(file).uid }).toEqual({ file, uid: site.user.uid });
  }
  expect((await site.page("/home")).status).toBe(200);
  expect(await homeShows(HEADING)).toBe(true);
  expect(await homeShows(CHANGED)).toBe(false);
  expect(fs.existsSync(site.npmCiMarker)).toBe(false);
  // No earlier release: the service is started on this one.
  expect(site.restarts()).toHaveLength(1);
  const s = status();
  expect(s.state).toBe("live");
  expect(s.underway).toBeUndefined();
  firstCommit = s.live!.commit;
  expect(fs.existsSync(lockFile())).toBe(false);
  // The studio reads it from the site, never from a cache.
  expect(await servedStatus()).toEqual({ cacheControl: "no-store", status: s });
});

/** Appends `text` to `file` as the release user (a bad commit's build runs as it): exit code and output. */
function appendAsReleaseUser(file: string, text: string): { code: number | null; output: string } {
  const result = spawnSync("sh", ["-c", 'cat >> "$1"', "sh", file], {
    input: text,
    encoding: "utf8",
    ...(isRoot ? { uid: site.user.uid, gid: site.user.gid } : {}),
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

test("nginx parses what a release writes as its own user: no root process reads it", async () => {
  const pid = site.nginx.masterPid();
  expect(pid).toBeDefined();
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const ids = (field: string) =>
    status
      .match(new RegExp(`^${field}:\\s+(.*)$`, "m"))![1]!
      .split(/\s+/)
      .map(Number);
  // Real, effective, saved and file-system ids: nginx's own user, neither root nor the release's.
  expect(new Set([...ids("Uid"), ...ids("Gid")])).toEqual(new Set([site.nginx.web.uid, site.nginx.web.gid]));
  expect([0, site.user.uid]).not.toContain(site.nginx.web.uid);
  // Its one capability: ports below 1024 (bit 10, CAP_NET_BIND_SERVICE).
  if (isRoot) expect(status.match(/^CapEff:\s+(\S+)$/m)![1]).toBe("0000000000000400");
  // Root's own nginx (its configuration folder) names nothing under the release root, and every file
  // and folder of it is root's, writable by no one else.
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const file = path.join(dir, e.name);
      return e.isDirectory() ? [file, ...walk(file)] : [file];
    });
  const conf = [site.nginx.rootConf, ...walk(site.nginx.rootConf)].filter((f) => !/\/(logs|temp)(\/|$)/.test(f));
  for (const file of conf) {
    const { uid, mode } = fs.lstatSync(file);
    expect({ file, uid: isRoot ? uid : 0, writableByOthers: (mode & 0o022) !== 0 }).toEqual({
      file,
      uid: 0,
      writableByOthers: false,
    });
    if (fs.lstatSync(file).isFile()) expect(fs.readFileSync(file, "utf8")).not.toContain(site.root);
  }
});

test("as the release user, an access_log or an include written into the live configuration gives no one root", async () => {
  // Places only root may write: what a root nginx master would open for the release user.
  const rootOnly = fs.mkdtempSync(path.join(site.base, "root-only-"));
  fs.chmodSync(rootOnly, 0o755);
  const secret = path.join(rootOnly, "secret.conf");
  fs.writeFileSync(secret, "# root's, not nginx's\n", { mode: 0o600 });
  const before = fs.statSync(secret).mtimeMs;
  const live = path.join(fs.realpathSync(path.join(site.root, "current")), "nginx", "cyrus.conf");
  const original = fs.readFileSync(live, "utf8");
  const cron = path.join(rootOnly, "cron-job");
  const port = await freePort();
  try {
    for (const evil of [
      `log_format cyrus_evil escape=none '$http_x_evil';\nserver { listen 127.0.0.1:${port}; access_log ${cron} cyrus_evil; location / { return 200 "ok"; } }\n`,
      `include ${secret};\n`,
    ]) {
      // The release user owns the release: a bad commit's build could write this.
      expect(appendAsReleaseUser(live, evil)).toEqual({ code: 0, output: "" });
      expect(await site.documentedReload()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-evil": "* * * * * root id" } }).catch(() => undefined);
      expect(fs.readdirSync(rootOnly).sort()).toEqual(["secret.conf"]);
      expect(fs.statSync(secret).mtimeMs).toBe(before);
      fs.writeFileSync(live, original);
    }
  } finally {
    fs.writeFileSync(live, original);
    await site.nginx.reload();
  }
  expect(await homeShowsSoon(HEADING)).toBe(true);
});

test("a pushed text change goes live, built in its sandbox with the previous build's caches and the same packages, shared", async () => {
  secondCommit = site.push(
    "data/home/home.yaml",
    (t) => t.replace(`"${HEADING}"`, `"${CHANGED}"`),
    "Home: new welcome",
  );
  const result = await site.release();
  console.log(`warm release: ${result.seconds.toFixed(0)} s`);
  expectExit(result, 0);
  expect(await homeShows(CHANGED)).toBe(true);
  expect(fs.existsSync(site.npmCiMarker)).toBe(false);
  expect(result.output).not.toContain("npm ci is not expected");
  expect(result.output).toMatch(
    /"dependencies":\{"\.":"shared: shared\/packages\/site-[0-9a-f]{16}","admin":"shared: shared\/packages\/admin-[0-9a-f]{16}"\}/,
  );
  const seconds = JSON.parse(/"seconds":(\{[^}]*\})/.exec(result.output)![1]!) as Record<string, number>;
  console.log(`warm release: its packages linked in ${seconds.dependencies!.toFixed(1)} s`);
  // Shared, not copied: both releases' node_modules are links to the same entries of the store.
  const releases = fs.readdirSync(path.join(site.root, "releases")).sort();
  expect(releases).toHaveLength(2);
  for (const pkg of [".", "admin"]) {
    const [first, second] = releases.map((id) =>
      fs.readlinkSync(path.join(site.root, "releases", id, pkg, "node_modules")),
    );
    expect(second).toBe(first);
    expect(path.dirname(path.dirname(second!))).toBe(path.join(site.root, "shared", "packages"));
  }
  expect(fs.readdirSync(path.join(site.root, "shared", "packages"))).toHaveLength(2);
  expect(result.output).toContain('"caches":{"cache":true,"public":true}');
  // The build ran in its sandbox (deploy/release/sandbox.ts), as its log says: its own folder and
  // temporary folder writable, its packages read-only, no network.
  const log = fs.readFileSync(path.join(site.root, "shared", "logs", `${releases[1]}.log`), "utf8");
  const build = path.join(site.root, "build");
  expect(log).toContain(
    `$ bwrap (sandbox: writes ${build}, ${build}-tmp; reads ${path.join(site.root, "shared", "packages", "site-")}`,
  );
  expect(log).toMatch(/^\$ bwrap \(sandbox: [^\n]*; no network\) -- npx --no-install gatsby build$/m);
  // Only data/ changed: the service keeps running.
  expect(site.restarts()).toHaveLength(1);
  expect(status().live).toMatchObject({ commit: secondCommit, title: "Home: new welcome" });
});

/** Every file of a release's packages (node_modules and admin/node_modules): its path, inode, size and time. */
function packageFiles(release: string): Array<{ file: string; ino: number; sign: string }> {
  const found: Array<{ file: string; ino: number; sign: string }> = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        const st = fs.lstatSync(file, { bigint: true });
        const rel = path.relative(release, file);
        found.push({ file: rel, ino: Number(st.ino), sign: `${rel} ${st.ino} ${st.size} ${st.mtimeNs} ${st.mode}` });
      }
    }
  };
  for (const pkg of [".", "admin"]) walk(path.join(release, pkg, "node_modules"));
  return found;
}

/** A release's packages as they are: every file's signature, and the bytes of the ones a bad commit writes. */
function packagesNow(release: string): { tree: string; written: string } {
  const tree = crypto.createHash("sha256");
  for (const { sign } of packageFiles(release)) tree.update(`${sign}\n`);
  const written = crypto.createHash("sha256");
  for (const file of WRITTEN) written.update(fs.readFileSync(path.join(release, file)));
  return { tree: tree.digest("hex"), written: written.digest("hex") };
}

/** A release's own files (its packages apart): each one's path, inode, size, times and mode, and the bytes of /home. */
function releaseNow(release: string): string {
  const hash = crypto.createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      const st = fs.lstatSync(file, { bigint: true });
      hash.update(`${path.relative(release, file)} ${st.ino} ${st.size} ${st.mtimeNs} ${st.ctimeNs} ${st.mode}\n`);
      if (entry.isDirectory()) walk(file);
    }
  };
  walk(release);
  hash.update(fs.readFileSync(path.join(release, "public", "home", "index.html")));
  return hash.digest("hex");
}

/** Package files that the content error's commit tries to write into from its own content check. */
const WRITTEN = ["node_modules/tsx/dist/loader.mjs", "admin/node_modules/yaml/dist/index.js"];
let packageJson = "";

test("a commit with a content error is not built; its check, in its sandbox, reads and writes nothing of the others; the live site and the status say why", async () => {
  // Its own content check (its package.json's script) first tries what code that means harm would,
  // as the release user: read the settings (the repository's token), the mirror (the drafts) and
  // the other release, write into the live release and its packages, and into its own packages.
  const work = path.join(site.base, "work");
  packageJson = fs.readFileSync(path.join(work, "package.json"), "utf8");
  const pkg = JSON.parse(packageJson) as { scripts: Record<string, string> };
  const kept = fs.readdirSync(path.join(site.root, "releases")).map((id) => path.join(site.root, "releases", id));
  const live = fs.realpathSync(path.join(site.root, "current"));
  const other = kept.find((dir) => dir !== live)!;
  const attempts: Array<[string, string]> = [
    ["read the settings", `cat ${site.root}/shared/release.env`],
    ["read the mirror", `ls ${site.root}/shared/repo.git`],
    ["read the other release", `cat ${other}/.release.json`],
    ["write into the live release", `echo hacked >> ${live}/public/home/index.html`],
    ["write into the packages of the live release", `echo hacked >> ${live}/${WRITTEN[0]}`],
    ...WRITTEN.map((file): [string, string] => [`write into its own ${file}`, `echo hacked >> ${file}`]),
  ];
  const tries = attempts.map(
    ([what, command]) => `if (${command}) >/dev/null 2>&1; then echo 'ALLOWED ${what}'; else echo 'denied ${what}'; fi`,
  );
  pkg.scripts["check:content"] = `${tries.join("; ")}; ${pkg.scripts["check:content"]}`;
  fs.writeFileSync(path.join(work, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  const before = kept.map(packagesNow);
  const releasesBefore = kept.map(releaseNow);
  const bad = site.push("data/home/home.yaml", (t) => t.replace(/^title: .*$/m, "title: 12"), "Home: title");
  const result = await site.release();
  expectExit(result, 1);
  for (const [what] of attempts) expect(result.output).toContain(`denied ${what}`);
  expect(result.output).not.toContain("ALLOWED");
  expect(result.output).toContain("content check failed");
  // The live release, the rollback target and their packages, byte for byte as they were.
  expect(kept.map(packagesNow)).toEqual(before);
  expect(kept.map(releaseNow)).toEqual(releasesBefore);
  expect(await homeShows(CHANGED)).toBe(true);
  const s = status();
  expect(s.state).toBe("live");
  expect(s.live?.commit).toBe(secondCommit);
  expect(s.lastFailure).toMatchObject({ commit: bad, step: "content check" });
  expect(s.lastFailure?.message).toMatch(/data\/home\/home\.yaml:\d+:\d+, field "title"/);
  expect(s.lastFailure?.message).toContain("put the whole text in double quotes");
  expect((await servedStatus()).status).toEqual(s);
  // No path of the server in what editors will read.
  expect(s.lastFailure?.message).not.toContain(site.root);
  expect(fs.readdirSync(path.join(site.root, "releases"))).toHaveLength(2);
  expect(fs.existsSync(path.join(site.root, "build"))).toBe(false);
  expect(fs.existsSync(path.join(site.root, "build-tmp"))).toBe(false);
});

test("--list shows the releases, the live one marked", async () => {
  const { code, output } = await site.release(["--list"]);
  expect(code).toBe(0);
  const lines = output.trim().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(
    new RegExp(`^\\* \\S+-${secondCommit.slice(0, 7)}  ${secondCommit.slice(0, 12)} .*Home: new welcome  \\(live\\)$`),
  );
  expect(lines[1]).toMatch(new RegExp(`^  \\S+-${firstCommit.slice(0, 7)}  ${firstCommit.slice(0, 12)} `));
});

test("when the live check fails after a switch, the release switches back by itself", async () => {
  // A rollback switches without building: the live check then asks a port where nothing listens.
  const closed = await freePort();
  const result = await site.release(["--rollback"], {
    RELEASE_LIVE_URL: `http://127.0.0.1:${closed}`,
    RELEASE_LIVE_TIMEOUT_SECONDS: "2",
  });
  expectExit(result, 1);
  expect(result.output).toContain("switching back");
  expect(await homeShowsSoon(CHANGED)).toBe(true);
  expect(status().live?.commit).toBe(secondCommit);
});

test("a lock held by a live process refuses a second release with a clear message", async () => {
  // A process of the release user holding the lock as a release under way does.
  const holder = await site.holdLock();
  const { code, output } = await site.release(["--rollback"]);
  expect(code).toBe(3);
  expect(output).toContain(`another release is running (pid ${holder.pid}`);
  expect(await homeShows(CHANGED)).toBe(true);
  await holder.release();
  expect(fs.existsSync(lockFile())).toBe(false);
});

test("a lock left by a killed release is taken over; --rollback serves the previous release in seconds", async () => {
  // A process that held the lock, killed as systemd kills a unit: its note of who held it stays.
  const holder = await site.holdLock();
  await holder.kill();
  expect(fs.existsSync(lockFile())).toBe(true);
  const result = await site.release(["--rollback"]);
  console.log(`rollback: ${result.seconds.toFixed(1)} s`);
  expectExit(result, 0);
  expect(result.output).toContain(`the lock of pid ${holder.pid} is left over (that process is gone): taking it over`);
  expect(await homeShowsSoon(CHANGED, false)).toBe(true);
  expect(await homeShows(HEADING)).toBe(true);
  expect(status().live?.commit).toBe(firstCommit);
  expect(fs.existsSync(lockFile())).toBe(false);
});

/**
 * One request as a browser sends it, on a keep-alive connection: when a reused connection is closed
 * before any answer (an old nginx worker closing its idle connections as a reload ends), it is sent
 * again once on a new one. Browsers do so for a GET (RFC 9112, 9.3.1.1) and Chromium for any method
 * (`HttpNetworkTransaction::ShouldResendRequest`: a reused connection, no response headers yet), the
 * contact form's POST included; nothing reached the server, and a resent enquiry would be recognised
 * anyway (src/site-service/enquiries/store/duplicate-key.ts). Node tells a reused socket by
 * `request.reusedSocket`. Returns the status, the body, and whether it was sent again.
 */
function browserRequest(
  url: string,
  agent: http.Agent | false,
  post?: { json: unknown },
  retried = false,
): Promise<{ status: number; body: string; retried: boolean }> {
  return new Promise((resolve, reject) => {
    const body = post === undefined ? undefined : JSON.stringify(post.json);
    const req = http.request(
      url,
      {
        agent,
        method: post === undefined ? "GET" : "POST",
        headers:
          body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), retried }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && !retried && ["ECONNRESET", "EPIPE"].includes(error.code ?? ""))
        // On a new connection: another idle one of the pool may belong to the same old worker.
        browserRequest(url, false, post, true).then(resolve, reject);
      else reject(error);
    });
    req.end(body);
  });
}

/**
 * Visitors asking for a page, 4 at a time, until `done` settles (at most 200,000 requests): how many
 * were sent, how many a browser would have sent again, and each that was not a 200 or got no answer.
 */
async function loadUntil(
  done: Promise<unknown>,
  route: string,
): Promise<{ requests: number; retried: number; failures: string[] }> {
  let finished = false;
  void done.finally(() => (finished = true));
  let requests = 0;
  let retried = 0;
  const failures: string[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const visitor = async () => {
    while (!finished && requests < 200_000) {
      requests += 1;
      try {
        const answer = await browserRequest(`${site.origin}${route}`, agent);
        if (answer.retried) retried += 1;
        if (answer.status !== 200) failures.push(`${answer.status}`);
      } catch (error) {
        failures.push(String(error));
      }
      // Paced (at most 160 a second together), so that the load lasts as long as the release does
      // and leaves the build beside it most of the 2 cores.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await Promise.all([visitor(), visitor(), visitor(), visitor()]);
  agent.destroy();
  return { requests, retried, failures: failures.slice(0, 20) };
}

/** A process and every process it started, children first (a release's npm and build). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const below = (p: number): number[] => (children.get(p) ?? []).flatMap((c) => [...below(c), c]);
  return [...below(pid), pid];
}

/**
 * Kills a process and every process below it at once, as systemd kills a unit's cgroup: each is
 * stopped first (a stopped process starts no other) and the tree read again until nothing new shows,
 * then all are killed. Killed as first read, a process started meanwhile outlived the rest and went on
 * writing into build/, which the next release then failed to remove (ENOTEMPTY, once in CI).
 */
function killTree(pid: number): void {
  const found = new Set<number>();
  for (let round = 0; round < 50; round += 1) {
    const fresh = processTree(pid).filter((p) => !found.has(p));
    if (fresh.length === 0) break;
    for (const p of fresh) {
      found.add(p);
      try {
        process.kill(p, "SIGSTOP");
      } catch {
        // already gone
      }
    }
  }
  for (const p of found) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

test("the timer's --if-moved tries a commit once: one whose release failed is not built again", async () => {
  // The branch's head is the commit with the content error; the live release is the first one.
  const tried = await site.release(["--if-moved"]);
  expectExit(tried, 1);
  expect(tried.output).toContain("content check failed");
  const again = await site.release(["--if-moved"]);
  expectExit(again, 0);
  expect(again.output).toContain("release: up to date");
  expect(again.output).not.toContain("release: content check");
  expect(await homeShows(HEADING)).toBe(true);
  // Its second try was denied all it tried, as the first: the live release's packages are as they were.
  expect(tried.output).toContain("denied write into the packages of the live release");
  expect(tried.output).not.toContain("ALLOWED");
  const live = fs.realpathSync(path.join(site.root, "current"));
  for (const file of WRITTEN) expect(fs.readFileSync(path.join(live, file), "utf8")).not.toContain("hacked");
  // The next commits carry the project's own package.json again.
  fs.writeFileSync(path.join(site.base, "work", "package.json"), packageJson);
});

test("a push whose signature is wrong is refused by the site's hook, and nothing is released", async () => {
  const commit = site.push("data/home/home.yaml", (t) => t.replace(/^title: .*$/m, 'title: "Unsigned"'), "Unsigned");
  expect(await site.hookPush(commit, "not-the-secret-of-this-hook")).toBe(401);
  expect(fs.existsSync(path.join(site.requests, WANTED_FILE))).toBe(false);
  const result = await site.release(["--wanted"]);
  expectExit(result, 0);
  expect(result.output).toContain("release: no release is wanted");
  expect(status().live?.commit).toBe(firstCommit);
});

test("signed pushes through nginx release themselves; pushes during a release become one next release, of the newest commit", async () => {
  const title = (text: string) => (t: string) => t.replace(/^title: .*$/m, `title: "${text}"`);
  const fixed = site.push("data/home/home.yaml", title("Home of Cyrus"), "Home: title fixed");
  expect(await site.hookPush(fixed)).toBe(202);
  const running = site.release(["--wanted"]);
  const loading = loadUntil(running, "/home");
  // While the first release builds, two more pushes, each noted.
  for (let i = 0; i < 1200 && status().underway?.step !== "build"; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(status().underway).toMatchObject({ commit: fixed, step: "build" });
  const skipped = site.push("data/home/home.yaml", title("Home of Cyrus, skipped"), "Home: skipped");
  expect(await site.hookPush(skipped)).toBe(202);
  const newest = site.push("data/home/home.yaml", title("Home of Cyrus, newest"), "Home: newest");
  expect(await site.hookPush(newest)).toBe(202);

  const result = await running;
  const load = await loading;
  expectExit(result, 0);
  // Visitors during both switches and reloads: every page answered.
  // It lasted until the release ended (not cut short by its bound), both switches included.
  expect(load.requests).toBeGreaterThan(0);
  expect(load.requests).toBeLessThan(200_000);
  expect(load.failures).toEqual([]);
  console.log(
    `during the release: ${load.requests} requests for /home, ${load.retried} sent again on a new connection`,
  );
  expect(result.output.match(/release: wanted by a push/g)).toHaveLength(2);
  expect(status().live?.commit).toBe(newest);
  expect(await homeShowsSoon("Home of Cyrus, newest")).toBe(true);
  const built = fs.readdirSync(path.join(site.root, "releases")).map((id) => id.slice(id.lastIndexOf("-") + 1));
  expect(built).toEqual(expect.arrayContaining([fixed.slice(0, 7), newest.slice(0, 7)]));
  expect(built).not.toContain(skipped.slice(0, 7));
  expect(fs.existsSync(path.join(site.requests, WANTED_FILE))).toBe(false);

  const idle = await site.release(["--wanted"]);
  expectExit(idle, 0);
  expect(idle.output).toContain("release: no release is wanted");
  const moved = await site.release(["--if-moved"]);
  expectExit(moved, 0);
  expect(moved.output).toContain("release: up to date");
});

/**
 * Visitors sending the contact form through nginx, 4 at a time, until `done` settles (at most 10,000):
 * the ids answered 201, every other answer (status and body), and how many were sent again on a new
 * connection (browserRequest).
 */
async function enquiriesUntil(
  done: Promise<unknown>,
): Promise<{ acknowledged: string[]; refused: Array<{ status: number; body: string; at: number }>; retried: number }> {
  let finished = false;
  void done.finally(() => (finished = true));
  let sent = 0;
  let retried = 0;
  const acknowledged: string[] = [];
  const refused: Array<{ status: number; body: string; at: number }> = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const visitor = async () => {
    while (!finished && sent < 10_000) {
      sent += 1;
      const enquiry = {
        name: "Release Test",
        phone: "",
        email: "release@example.in",
        message: `Enquiry ${sent}, during a release`,
      };
      const res = await browserRequest(`${site.origin}/api/email`, agent, { json: enquiry });
      if (res.retried) retried += 1;
      if (res.status === 201) acknowledged.push((JSON.parse(res.body) as { id: string }).id);
      else refused.push({ status: res.status, body: res.body, at: Date.now() });
      // A person sends a form now and then: 4 visitors, at most 20 a second together.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  await Promise.all([visitor(), visitor(), visitor(), visitor()]);
  agent.destroy();
  return { acknowledged, refused, retried };
}

test("a release killed mid-way leaves its lock and folder behind; the next release takes them over, restarts the service, and loses no enquiry", async () => {
  const text = "Welcome to Cyrus, after a killed release";
  // The service's code changes too, so the release restarts it.
  site.push("src/site-service/index.ts", (t) => `${t}// changed by release.test.ts\n`, "Service: a comment");
  const commit = site.push("data/home/home.yaml", (t) => t.replace(`"${CHANGED}"`, `"${text}"`), "Home: after a kill");
  const killed = site.startRelease();
  // Killed as systemd stops a unit: the whole process tree at once, nothing cleaned up.
  for (let i = 0; i < 2400 && !["content check", "caches", "build"].includes(status().underway?.step ?? ""); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(status().underway).toMatchObject({ commit });
  killTree(killed.pid);
  expect((await killed.done).code).toBe("SIGKILL");
  // Its note of who held the lock stays; the lock itself went with the process.
  expect(fs.existsSync(lockFile())).toBe(true);
  expect(fs.existsSync(path.join(site.root, "build"))).toBe(true);

  const restartsBefore = site.restarts().length;
  const releasing = site.release();
  const sending = enquiriesUntil(releasing);
  const next = await releasing;
  const { acknowledged, refused, retried } = await sending;
  expectExit(next, 0);
  expect(site.restarts()).toHaveLength(restartsBefore + 1);
  // Every enquiry answered 201 is stored; one refused while the service restarted got nginx's 503,
  // which the form shows as its error with the visitor's values kept (enquiry-form tests).
  await waitFor(`${site.serviceUrl}/healthz`);
  const stored = new Set(readStoredLinesNow(site.enquiries).map((line) => line.id));
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  expect(refused.filter((r) => r.status !== 503 || !r.body.includes('"error":"service_unavailable"'))).toEqual([]);
  console.log(
    `during the release: ${acknowledged.length} enquiries stored, ${retried} sent again on a new connection` +
      (refused.length > 0
        ? `; ${refused.length} refused with 503 over ${((refused.at(-1)!.at - refused[0]!.at) / 1000).toFixed(1)} s as the service restarted`
        : ""),
  );
  expect(next.output).toContain(`the lock of pid ${killed.pid} is left over (that process is gone): taking it over`);
  expect(next.output).toContain("removing build/, left unfinished");
  expect(await homeShowsSoon(text)).toBe(true);
  expect(status().live?.commit).toBe(commit);
  expect(fs.existsSync(lockFile())).toBe(false);
});

/**
 * A rollback holds until something new is published (deploy/release/history.ts): the timer and a
 * replayed push leave it, a new commit is released and ends the pause, a second rollback goes back
 * to the release live before, never to the one rolled back from, and a rollback to code without a
 * store migration the live release has is refused. On `site`, after the tests above (the live
 * release is the one after the killed release, and the branch's head); one build.
 */
describe("a rollback holds until something new is published", () => {
  interface Paused {
    since: string;
    rolledBackFrom: { commit: string; title: string };
    resume: string;
  }
  const statusNow = () => status() as StatusFile & { live?: { id: string; commit: string }; paused?: Paused };
  const releasesNow = () => fs.readdirSync(path.join(site.root, "releases")).sort();
  const history = () => fs.readFileSync(path.join(site.root, "shared", "release-history.json"), "utf8");
  const KILLED_TEXT = "Welcome to Cyrus, after a killed release";
  const FIXED_TEXT = "Welcome to Cyrus, fixed after a rollback";
  /** A release's own steps in its output: none when nothing is built. */
  const built = (output: string) => /^release: (fetch|checkout|build)$/m.test(output);
  let bad = "";
  let rolledBackTo = { id: "", commit: "" };
  let fix = "";
  let migrationFile = "";

  test("five notes for the live head: each taken, nothing built; the releases and the history as they were", async () => {
    bad = statusNow().live!.commit;
    const releases = releasesNow();
    const before = history();
    for (let i = 0; i < 5; i += 1) {
      // A replayed delivery of the same push, or the service's user writing the note.
      expect(await site.hookPush(bad)).toBe(202);
      const result = await site.release(["--wanted"]);
      expectExit(result, 0);
      expect(result.output).toContain("release: wanted by a push");
      expect(result.output).toContain(`release: up to date: ${bad.slice(0, 12)}`);
      expect(built(result.output)).toBe(false);
      expect(fs.existsSync(path.join(site.requests, WANTED_FILE))).toBe(false);
    }
    expect(releasesNow()).toEqual(releases);
    expect(history()).toBe(before);
    expect(statusNow().live?.commit).toBe(bad);
  });

  test("after --rollback, the timer's run and a replayed push release nothing: still rolled back, and said so", async () => {
    const list = await site.release(["--list"]);
    expectExit(list, 0);
    const marked = /^ {2}(\S+) {2}([0-9a-f]{12}) .*\(--rollback goes here\)$/m.exec(list.output);
    expect(marked).not.toBeNull();
    const result = await site.release(["--rollback"]);
    expectExit(result, 0);
    expect(result.output).toContain("release: automatic releases are paused until a new commit");
    const s = statusNow();
    rolledBackTo = { id: s.live!.id, commit: s.live!.commit };
    expect(rolledBackTo.id).toBe(marked![1]);
    expect(rolledBackTo.commit.startsWith(marked![2]!)).toBe(true);
    expect(s.paused).toMatchObject({ rolledBackFrom: { commit: bad }, resume: expect.stringContaining("new commit") });
    expect((await servedStatus()).status).toEqual(s);
    expect(await homeShowsSoon(KILLED_TEXT, false)).toBe(true);
    const releases = releasesNow();

    // The timer: the branch's head is the commit rolled back from.
    const timer = await site.release(["--if-moved"]);
    expectExit(timer, 0);
    expect(timer.output).toContain("release: automatic releases are paused since");
    expect(built(timer.output)).toBe(false);
    // A replayed push of that commit: the note is taken, nothing released.
    expect(await site.hookPush(bad)).toBe(202);
    const replayed = await site.release(["--wanted"]);
    expectExit(replayed, 0);
    expect(replayed.output).toContain("release: automatic releases are paused since");
    expect(built(replayed.output)).toBe(false);
    expect(fs.existsSync(path.join(site.requests, WANTED_FILE))).toBe(false);

    expect(statusNow().live?.id).toBe(rolledBackTo.id);
    expect(await homeShows(KILLED_TEXT)).toBe(false);
    expect(releasesNow()).toEqual(releases);
    const listed = await site.release(["--list"]);
    expect(listed.output).toContain(`automatic releases are paused since ${s.paused!.since}`);
    expect(listed.output).toContain(`rolled back from ${bad.slice(0, 12)}`);
  });

  test("a new commit is released as usual and ends the pause; it adds a store migration", async () => {
    // A person's fix, which also adds a migration: numbered after the store's own, and without
    // `-- compatible-from`, so the code before it cannot use its database.
    const migrations = path.join(projectRoot, "src/site-service/enquiries/store/migrations/sqlite");
    const next = Math.max(...fs.readdirSync(migrations).map((file) => Number(file.slice(0, 3)) || 0)) + 1;
    migrationFile = `${String(next).padStart(3, "0")}-release-test.sql`;
    const migration = `src/site-service/enquiries/store/migrations/sqlite/${migrationFile}`;
    const work = path.join(site.base, "work");
    fs.writeFileSync(path.join(work, migration), "CREATE TABLE IF NOT EXISTS release_test (id integer);\n");
    execFileSync("git", ["add", migration], { cwd: work });
    fix = site.push("data/home/home.yaml", (t) => t.replace(`"${KILLED_TEXT}"`, `"${FIXED_TEXT}"`), "Home: fixed");
    expect(await site.hookPush(fix)).toBe(202);
    const result = await site.release(["--wanted"]);
    expectExit(result, 0);
    expect(statusNow().live?.commit).toBe(fix);
    expect(statusNow().paused).toBeUndefined();
    expect(await homeShowsSoon(FIXED_TEXT)).toBe(true);
    expect((await site.release(["--list"])).output).not.toContain("paused");
  });

  test("a rollback to code without that migration is refused, naming it; --force goes back to the release live before the new one, never the one rolled back from", async () => {
    const live = statusNow().live!.id;
    const refused = await site.release(["--rollback"]);
    expectExit(refused, 1);
    expect(refused.output).toContain("refusing to roll back to");
    expect(refused.output).toContain(`sqlite/${migrationFile}`);
    expect(refused.output).toContain("--rollback --force");
    expect(statusNow().live?.id).toBe(live);
    expect(statusNow().paused).toBeUndefined();

    // By id, the release before the fix is the bad one; the one live before the fix is not.
    const forced = await site.release(["--rollback", "--force"]);
    expectExit(forced, 0);
    const s = statusNow();
    expect(s.live?.commit).not.toBe(bad);
    expect(s.live).toMatchObject(rolledBackTo);
    expect(s.paused?.rolledBackFrom.commit).toBe(fix);
    expect(await homeShowsSoon(FIXED_TEXT, false)).toBe(true);
    expect(await homeShows(KILLED_TEXT)).toBe(false);
    // The branch's head is the fix, rolled back from: the timer leaves it.
    const timer = await site.release(["--if-moved"]);
    expectExit(timer, 0);
    expect(timer.output).toContain("release: automatic releases are paused since");
    expect(statusNow().live?.id).toBe(rolledBackTo.id);
  });
});
