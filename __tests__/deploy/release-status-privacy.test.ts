/**
 * The release status is public (nginx serves shared/release-status.json at /admin/release-status.json):
 * it says which step failed in plain words, the content check's own report, commits and times, and
 * the id of the attempt's log. Everything else a failure says (the repository's address and token,
 * the live check's address, nginx's certificate paths, the build's output and environment) goes to
 * that log, shared/logs/<id>.log, which only the release user can read.
 *
 * No build and no nginx: the fetch fails inside release() itself; the later steps' real errors (the
 * live check against a closed port, a failing `nginx -t`, a build and a content check run by their
 * own functions) go through recordFailure, the path release() takes for every failure.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build, checkContent } from "../../deploy/release/build";
import { must, shell, StepError } from "../../deploy/release/exec";
import { checkLive } from "../../deploy/release/go-live";
import { paths } from "../../deploy/release/layout";
import { makeScratch } from "../../deploy/release/sandbox";
import { release } from "../../deploy/release/release";
import { openLog, withLog, type ReleaseLog } from "../../deploy/release/release-log";
import { readSettings } from "../../deploy/release/settings";
import { contentReport, publicMessage, recordFailure } from "../../deploy/release/status";
import { freePort } from "../support/serve";
import { projectRoot } from "./support/stack";

jest.setTimeout(60_000);

const made: string[] = [];
const newRoot = (): string => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-status-"));
  made.push(root);
  fs.mkdirSync(path.join(root, "shared"), { recursive: true });
  return root;
};
afterAll(() => {
  for (const root of made) fs.rmSync(root, { recursive: true, force: true });
});

/** `root`, with the sandbox's private folder (sandbox.ts) made as a release makes it before its steps. */
const withScratch = (root: string): string => {
  makeScratch(paths(root).buildTmp);
  return root;
};

const statusText = (root: string) => fs.readFileSync(paths(root).status, "utf8");
const logText = (root: string, id: string) => fs.readFileSync(path.join(paths(root).logs, `${id}.log`), "utf8");
const target = { commit: "abc1234def5678", title: "Home: new welcome", time: "2026-11-27T10:14:00Z" };
const ID = "20261127T101500Z-abc1234";

/** The status names the log by id only, and only the release user can read the log or list its folder. */
function expectPrivateLog(root: string, id: string): void {
  const { lastFailure } = JSON.parse(statusText(root)) as { lastFailure: { log: string } };
  expect(lastFailure.log).toBe(id);
  expect(fs.statSync(paths(root).logs).mode & 0o777).toBe(0o700);
  expect(fs.statSync(path.join(paths(root).logs, `${id}.log`)).mode & 0o777).toBe(0o600);
}

/** None of `secrets` in the status, nor any path (the plain sentences and these titles have no slash). */
function expectNone(root: string, secrets: string[]): void {
  const text = statusText(root);
  for (const secret of secrets)
    expect({ secret, inStatus: text.includes(secret) }).toEqual({ secret, inStatus: false });
  expect(text).not.toContain("/");
}

/** A later step's failure as release() records it: the real error, caught under the attempt's log. */
async function failAt(
  root: string,
  step: string,
  work: () => Promise<unknown>,
  folders: string[] = [root],
): Promise<{ error: StepError; log: ReleaseLog }> {
  const log = openLog(root, ID);
  try {
    const error = (await withLog(log, work).then(
      () => undefined,
      (e: unknown) => e,
    )) as StepError;
    expect(error).toBeInstanceOf(StepError);
    recordFailure(paths(root).status, log, { target, step, error, folders, liveAfter: true }, { state: "live" });
    return { error, log };
  } finally {
    log.close();
  }
}

describe("a failed fetch, through release()", () => {
  test.each([
    [
      "an http URL with a token, on a closed port",
      async () => `http://deploy:s3cret-token@127.0.0.1:${await freePort()}/site.git`,
    ],
    [
      "a file URL with a token-like user, to a missing path",
      async () => "file://s3cret-token@localhost/srv/git/missing/site.git",
    ],
  ])("%s: the status says it in plain words; the log has git's message, never the token", async (_, repoUrl) => {
    const repo = await repoUrl();
    const root = newRoot();
    const settings = readSettings({ RELEASE_ROOT: root, RELEASE_REPO: repo, RELEASE_LIVE_URL: "http://10.0.0.7:8080" });
    const error = (await release(settings).catch((e: unknown) => e)) as StepError;
    expect(error).toBeInstanceOf(StepError);
    expect(error.step).toBe("fetch");

    const status = JSON.parse(statusText(root)) as { state: string; lastFailure: Record<string, string> };
    expect(status.state).toBe("failed");
    expect(status.lastFailure).toMatchObject({
      step: "fetch",
      message: "The site could not be fetched from the repository.",
      commit: "",
    });
    // Before the commit is known, the attempt is named by its time alone.
    const id = status.lastFailure.log!;
    expect(id).toMatch(/^\d{8}T\d{6}Z$/);
    expectPrivateLog(root, id);
    const where = repo.includes("127.0.0.1") ? new URL(repo).host : "/srv/git/missing/site.git";
    expectNone(root, ["s3cret-token", where, "127.0.0.1", "10.0.0.7", root]);

    // The log: the step, git's command with the token masked, and git's own message with the address.
    const log = logText(root, id);
    expect(log).toContain("release: fetch");
    expect(log).toMatch(/\$ git .*clone --quiet --mirror/);
    expect(log).toContain(where);
    expect(log).toContain("fetch failed: its output is above");
    expect(log).not.toContain("s3cret-token");
    // The operator's command line still says everything (but the token, which git masks itself).
    expect(error.message).toContain(where);
  });
});

test("a live check against an unreachable address: neither the address nor its error in the status", async () => {
  const root = newRoot();
  const closed = await freePort();
  const liveUrl = `http://127.0.0.1:${closed}/internal-live`;
  const info = {
    id: ID,
    commit: target.commit,
    title: target.title,
    commitTime: target.time,
    builtAt: "",
    buildHash: "h",
  };
  const { error } = await failAt(root, "switch", () => checkLive(liveUrl, info, 1_000));
  expect(error.step).toBe("live check");
  expect(error.message).toContain(liveUrl);

  expect(JSON.parse(statusText(root))).toMatchObject({
    state: "live",
    lastFailure: {
      ...target,
      step: "live check",
      message: "The new release did not answer after the switch; the previous one is live again.",
      log: ID,
    },
  });
  expectNone(root, ["127.0.0.1", `:${closed}`, "internal-live", "fetch failed"]);
  expectPrivateLog(root, ID);
  const log = logText(root, ID);
  expect(log).toContain(`live check failed: ${liveUrl}/home did not serve release ${ID}`);
  expect(log).toContain("fetch failed");
});

test("a failing nginx -t: its certificate and key paths only in the log", async () => {
  const root = newRoot();
  const conf = path.join(root, "releases", ID, "nginx");
  // As nginx says it: the key it could not load, the configuration file it tested.
  const nginxTest =
    "echo 'nginx: [emerg] cannot load certificate \"/etc/ssl/private/site.key\": BIO_new_file() failed' >&2; " +
    "echo nginx: configuration file {conf}/nginx.conf test failed >&2; exit 1";
  const { error } = await failAt(root, "nginx", () => must("nginx -t", shell(nginxTest, { conf }, { quiet: true })), [
    path.join(root, "releases", ID),
    root,
  ]);
  expect(error.step).toBe("nginx -t");

  expect(JSON.parse(statusText(root))).toMatchObject({
    lastFailure: { step: "nginx -t", message: "The web server found this release's configuration wrong.", log: ID },
  });
  expectNone(root, ["/etc/ssl", "site.key", "certificate", "BIO_new_file", "nginx.conf", root]);
  expectPrivateLog(root, ID);
  const log = logText(root, ID);
  expect(log).toContain('cannot load certificate "/etc/ssl/private/site.key"');
  expect(log).toContain(`configuration file ${conf}/nginx.conf test failed`);
});

test("a build that prints an environment value and a source path: none of its output in the status", async () => {
  const root = newRoot();
  const dir = path.join(root, "build");
  // The release's own `npx --no-install gatsby build` (build.ts), with a gatsby that fails as a bad build would.
  fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "node_modules", ".bin", "gatsby"),
    '#!/bin/sh\necho "building with API key $CYRUS_TEST_API_KEY"\necho "ERROR in /home/builder/private-src/pages/index.tsx:12" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  const secret = "env-value-7f3a91c2";
  const env = { ...process.env, CYRUS_TEST_API_KEY: secret };
  const { error } = await failAt(root, "build", () => build(dir, env, withScratch(root)), [dir, root]);
  expect(error.step).toBe("build");
  expect(error.message).toContain(secret);

  expect(JSON.parse(statusText(root))).toMatchObject({
    lastFailure: { step: "build", message: "The site did not build.", log: ID },
  });
  expectNone(root, [secret, "API key", "private-src", "index.tsx", "ERROR", root]);
  expectPrivateLog(root, ID);
  const log = logText(root, ID);
  expect(log).toContain(`building with API key ${secret}`);
  expect(log).toContain("ERROR in /home/builder/private-src/pages/index.tsx:12");
  // Run in the build's sandbox (sandbox.ts), which the log describes.
  expect(log).toMatch(/^\$ bwrap \(sandbox: writes [^\n]*; no network\) -- npx --no-install gatsby build$/m);
});

describe("the content check", () => {
  /**
   * The project's packages as a store entry (deploy/release/dependencies.ts), hard-linked once for
   * the file: each root's shared/packages is a link to its folder. The check runs in its sandbox,
   * which shows the release folder and its store entries, nothing else of the project.
   */
  const ENTRY = "site-0123456789abcdef";
  let store: string | undefined;
  function packagesOf(root: string): string {
    if (!store) {
      store = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-status-packages-"));
      made.push(store);
      fs.mkdirSync(path.join(store, ENTRY));
      const copied = spawnSync("cp", ["-al", path.join(projectRoot, "node_modules"), path.join(store, ENTRY)]);
      expect(copied.status).toBe(0);
    }
    fs.symlinkSync(store, paths(root).packages);
    return path.join(paths(root).packages, ENTRY, "node_modules");
  }

  /** A release folder as the release makes it, for the check alone: data/ (changed), the project's code. */
  function releaseFolder(root: string, change?: (text: string) => string): string {
    const dir = path.join(root, "build");
    fs.mkdirSync(dir);
    fs.cpSync(path.join(projectRoot, "data"), path.join(dir, "data"), { recursive: true });
    fs.copyFileSync(path.join(projectRoot, "package.json"), path.join(dir, "package.json"));
    fs.cpSync(path.join(projectRoot, "src"), path.join(dir, "src"), { recursive: true });
    fs.symlinkSync(packagesOf(root), path.join(dir, "node_modules"));
    // check:content's launcher (a copy: it finds the project from its own folder).
    fs.cpSync(path.join(projectRoot, "tools/run-bundled.mjs"), path.join(dir, "tools/run-bundled.mjs"));
    const home = path.join(dir, "data", "home", "home.yaml");
    if (change) fs.writeFileSync(home, change(fs.readFileSync(home, "utf8")));
    return dir;
  }

  test("its report is the editors' and stays, the release folder's paths cut (as release.test.ts asserts)", async () => {
    const root = newRoot();
    const dir = releaseFolder(root, (t) => t.replace(/^title: .*$/m, "title: 12"));
    await failAt(root, "content check", () => checkContent(dir, process.env, withScratch(root)), [dir, root]);
    const { lastFailure } = JSON.parse(statusText(root)) as { lastFailure: { step: string; message: string } };
    expect(lastFailure.step).toBe("content check");
    expect(lastFailure.message).toMatch(
      /^The content check found 1 problem in data\/:\n\n {2}data\/home\/home\.yaml:\d+:\d+, field "title"\n/,
    );
    expect(lastFailure.message).toMatch(/data\/home\/home\.yaml:\d+:\d+, field "title"/);
    expect(lastFailure.message).toContain("put the whole text in double quotes");
    expect(lastFailure.message).toMatch(/Nothing can be built until these are corrected/);
    expect(statusText(root)).not.toContain(root);
    expect(statusText(root)).not.toContain(os.tmpdir());
    expectPrivateLog(root, ID);
    expect(logText(root, ID)).toMatch(/^\$ bwrap \(sandbox: [^\n]*\) -- npm run --silent check:content$/m);
  });

  test("a check that stops without its report: the plain sentence, its words only in the log", async () => {
    const root = newRoot();
    const dir = releaseFolder(root);
    // No schemas/: the check refuses the folder, naming it by its absolute path.
    fs.rmSync(path.join(dir, "data", "schemas"), { recursive: true });
    await failAt(root, "content check", () => checkContent(dir, process.env, withScratch(root)), [dir, root]);
    expect(JSON.parse(statusText(root))).toMatchObject({
      lastFailure: { step: "content check", message: "The content check did not finish." },
    });
    expectNone(root, ["is not a content folder", root]);
    expect(logText(root, ID)).toContain(`${path.join(dir, "data")} is not a content folder`);
  });

  test("only lines of the check's form pass: anything else printed with the report is left out", () => {
    const output = [
      "(node:123) Warning: something from /usr/lib/node_modules/x.js",
      "The content check found 1 warning in data/:",
      "",
      "  data/services/cdms.yaml:3:1",
      "  a warning, not why it stopped",
      "",
      "The content check found 2 problems in data/:",
      "",
      '  data/home/home.yaml:8:8, field "title"',
      '  YAML reads 12 as a number, not text: put the whole text in double quotes: "12"',
      "",
      "  data/services/cdms.yaml:3",
      "  order: 10 is already used by data/services/clinical-operations.yaml",
      "    there: a, b",
      "SECRET_TOKEN=abc at /srv/cyrus/build/src/x.ts:1",
      "",
      "Nothing can be built until these are corrected (checked in 12 ms).",
      "npm error code 1",
    ].join("\n");
    expect(contentReport(output)).toBe(
      [
        "The content check found 2 problems in data/:",
        "",
        '  data/home/home.yaml:8:8, field "title"',
        '  YAML reads 12 as a number, not text: put the whole text in double quotes: "12"',
        "",
        "  data/services/cdms.yaml:3",
        "  order: 10 is already used by data/services/clinical-operations.yaml",
        "    there: a, b",
        "",
        "Nothing can be built until these are corrected (checked in 12 ms).",
      ].join("\n"),
    );
    // Lines of the check's form after something else, or no place at all: no report.
    expect(contentReport("Error: Cannot find module '/srv/cyrus/build/node_modules/tsx'\n    at /srv/x.js:1")).toBe("");
    expect(contentReport("The content check found 1 problem in data/:\n\n  /srv/cyrus/data/x.yaml:1\n  oops")).toBe("");
  });
});

test("every step has its plain sentence, and the steps after the switch say what is live", () => {
  const steps = [
    "fetch",
    "checkout",
    "dependencies",
    "content check",
    "caches",
    "build",
    "site check",
    "nginx",
    "nginx -t",
  ];
  const said = steps.map((step) =>
    publicMessage(step, new StepError(step, "/srv/cyrus/x: secret"), ["/srv/cyrus"], true),
  );
  expect(new Set(said).size).toBe(steps.length);
  for (const sentence of said) expect(sentence).toMatch(/^The [^/]+\.$/);
  for (const step of ["switch", "nginx reload", "service restart", "live check"]) {
    expect(publicMessage(step, new Error("x"), [], true)).toMatch(/; the previous one is live again\.$/);
    expect(publicMessage(step, new Error("x"), [], false)).toMatch(/; no release is live yet\.$/);
  }
  expect(publicMessage("rollback: live check", new Error("http://10.0.0.7/home"), [], true)).toBe(
    "The rollback to the earlier release did not go live; the release that was live is live again.",
  );
});
