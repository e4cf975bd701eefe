/**
 * The release's repository credential and the editing studio's drafts (docs/server-design.md, "The
 * repository's token and the drafts"): the git steps of a release (deploy/release/git.ts:
 * updateMirror, resolveCommit, checkout, changed) run as release.ts runs them, in this process, from
 * settings read as on a server (shared/release.env, RELEASE_REPO with a token in it), against a git
 * host over HTTP that wants that token (./support/git-http-host.ts: git's own http-backend behind a
 * node:http server on loopback, standing for the git host, which cannot be reached from here). No
 * Gatsby build: the rest of a release never sees the repository.
 *
 * While git runs, another process reads every process's command line again and again: the token is
 * on none. After it, the token is in no file under the release root but the settings file; the
 * mirror's config has the URL without it; the mirror, the settings and the lock are the release
 * user's alone; a release has no .git; and another user (nobody, when the tests run as root) cannot
 * open any ref or pack of the mirror, the drafts' included.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  changed,
  checkout,
  MIRROR_MODE,
  removeReleaseRepositories,
  resolveCommit,
  updateMirror,
} from "../../deploy/release/git";
import { paths, releaseId } from "../../deploy/release/layout";
import { acquireLock, LOCK_MODE } from "../../deploy/release/lock";
import { parseRepository } from "../../deploy/release/repository";
import { readSettings, type Settings } from "../../deploy/release/settings";
import { writeStatus } from "../../deploy/release/status";
import { sampleCommandLines } from "./support/cmdline-sampler";
import { startGitHost, type GitHost } from "./support/git-http-host";
import { DRAFT, filesHoldingSecrets, git, SECRETS, TOKEN, USERNAME } from "./support/repository-token";

jest.setTimeout(120_000);

const isRoot = process.getuid!() === 0;

let base: string;
let host: GitHost;
let editor: string;
let root: string;
let settings: Settings;
let cleanUrl: string;
const commits: string[] = [];

/** A commit of the editor's clone pushed to the host (by its path, not over HTTP); returns it. */
function push(branch: string, file: string, text: string, message: string): string {
  git(editor, ["checkout", "--quiet", "-B", branch, "main"]);
  fs.mkdirSync(path.dirname(path.join(editor, file)), { recursive: true });
  fs.writeFileSync(path.join(editor, file), text);
  git(editor, ["add", "."]);
  git(editor, ["commit", "--quiet", "-m", message]);
  git(editor, ["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
  const commit = git(editor, ["rev-parse", "HEAD"]);
  git(editor, ["checkout", "--quiet", "main"]);
  return commit;
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** RELEASE_REPO as the operator writes it: the host's URL with the user and the token in it. */
const tokenUrl = () => `http://${USERNAME}:${TOKEN}@${new URL(host.origin).host}/site.git`;

/** Settings as a server has them: RELEASE_REPO with the token, in shared/release.env, mode 600. */
function serverSettings(at: string, repo = tokenUrl()) {
  fs.mkdirSync(path.join(at, "shared"), { recursive: true });
  const file = path.join(at, "shared", "release.env");
  fs.writeFileSync(file, `RELEASE_REPO=${repo}\nRELEASE_BRANCH=main\nSITE_URL=https://www.example.com\n`, {
    mode: 0o600,
  });
  fs.chmodSync(file, 0o600);
  return readSettings({ RELEASE_ROOT: at });
}

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-credentials-"));
  // Others may pass through, as through /srv: what keeps them out must be the release's own modes.
  fs.chmodSync(base, 0o755);
  const projects = path.join(base, "host");
  fs.mkdirSync(projects);
  git(projects, ["init", "--quiet", "--bare", "--initial-branch=main", "site.git"]);
  editor = path.join(base, "editor");
  git(base, ["clone", "--quiet", path.join(projects, "site.git"), editor]);
  git(editor, ["checkout", "--quiet", "-b", "main"]);
  fs.mkdirSync(path.join(editor, "src", "site-service"), { recursive: true });
  fs.mkdirSync(path.join(editor, "data"));
  fs.writeFileSync(path.join(editor, "src", "site-service", "index.ts"), "export {};\n");
  fs.writeFileSync(path.join(editor, "data", "home.yaml"), 'title: "Welcome to Cyrus"\n');
  git(editor, ["add", "."]);
  git(editor, ["commit", "--quiet", "-m", "The site"]);
  git(editor, ["push", "--quiet", "origin", "main"]);
  commits.push(git(editor, ["rev-parse", "HEAD"]));
  // The studio's unpublished draft: a branch of its own, as Decap's editorial workflow keeps it.
  push(DRAFT, "data/posts/draft.md", "An unpublished draft\n", "Create Posts “draft”");
  host = await startGitHost({ projectRoot: projects, username: USERNAME, token: TOKEN, delayMs: 150 });
  cleanUrl = `${host.origin}/site.git`;
  root = path.join(base, "root");
  settings = serverSettings(root);
});

afterAll(async () => {
  await host?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

describe("RELEASE_REPO", () => {
  test("an http(s) URL's user and token are taken out of it; nothing else is changed", () => {
    expect(parseRepository("https://x-access-token:ghp_abc@github.com/cyrus/site.git")).toEqual({
      url: "https://github.com/cyrus/site.git",
      credential: { username: "x-access-token", password: "ghp_abc" },
    });
    // Written %-encoded in the URL, given to git as they are.
    expect(parseRepository("https://deploy%40cyrus:p%3Ass%2Fword@git.example.com:8443/a/b.git")).toEqual({
      url: "https://git.example.com:8443/a/b.git",
      credential: { username: "deploy@cyrus", password: "p:ss/word" },
    });
    // A token as the user alone (GitHub takes it so): still no credential in the URL.
    expect(parseRepository("https://ghp_abc@github.com/cyrus/site.git")).toEqual({
      url: "https://github.com/cyrus/site.git",
      credential: { username: "ghp_abc", password: "" },
    });
    for (const plain of [
      "https://github.com/cyrus/site.git",
      "git@github.com:cyrus/site.git",
      "ssh://git@github.com/cyrus/site.git",
      "/srv/git/site.git",
    ]) {
      expect(parseRepository(plain)).toEqual({ url: plain });
    }
  });

  test("a password in an ssh URL, a broken URL or a line break is refused, and the message never repeats the value", () => {
    for (const value of [
      "ssh://git:secret-value@github.com/cyrus/site.git",
      "https://user:secret-value%zz@github.com/x.git",
      "https://user:secret-value%0A@github.com/x.git",
    ]) {
      expect(() => parseRepository(value)).toThrow(/^RELEASE_REPO/);
      try {
        parseRepository(value);
      } catch (error) {
        expect((error as Error).message).not.toContain("secret-value");
      }
    }
  });
});

test("shared/release.env that others may read or change is refused, with the file and the chmod to run", () => {
  const at = fs.mkdtempSync(path.join(base, "settings-"));
  fs.mkdirSync(path.join(at, "shared"));
  const file = path.join(at, "shared", "release.env");
  fs.writeFileSync(file, `RELEASE_REPO=${tokenUrl()}\nSITE_URL=https://x.example\n`);
  for (const [bits, shown] of [
    [0o644, "644"],
    [0o640, "640"],
    [0o620, "620"],
    [0o604, "604"],
  ] as const) {
    fs.chmodSync(file, bits);
    let message = "";
    try {
      readSettings({ RELEASE_ROOT: at });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `${file} may be read or changed by other users (mode ${shown}); it holds the repository's credential. Run: chmod 600 ${file}`,
    );
    expect(SECRETS.some((secret) => message.includes(secret))).toBe(false);
  }
  fs.chmodSync(file, 0o600);
  expect(readSettings({ RELEASE_ROOT: at }).repo.url).toBe(cleanUrl);
  // RELEASE_SETTINGS naming another file: the same rule.
  fs.chmodSync(file, 0o644);
  expect(() => readSettings({ RELEASE_ROOT: base, RELEASE_SETTINGS: file })).toThrow(`Run: chmod 600 ${file}`);
});

describe("a release's git steps with a token in RELEASE_REPO", () => {
  let firstDir = "";

  test("the settings give git the URL without the token, and the build none of it", () => {
    expect(settings.repo).toEqual({ url: cleanUrl, credential: { username: USERNAME, password: TOKEN } });
    expect(settings.buildEnv.RELEASE_REPO).toBe(cleanUrl);
  });

  test("the mirror is cloned and a release checked out with the token on no process's command line", async () => {
    const p = paths(root);
    const sampler = sampleCommandLines(SECRETS);
    const before = { ...host.counts };
    const unlock = acquireLock(p.lock);
    try {
      expect(mode(p.lock)).toBe(LOCK_MODE);
      await updateMirror(settings.repo, p.mirror);
      const target = await resolveCommit(p.mirror, settings.branch);
      expect(target).toMatchObject({ commit: commits[0], title: "The site" });
      // As release.ts: built in build/, then renamed to releases/<id>.
      await checkout(p.mirror, target.commit, p.build);
      firstDir = path.join(p.releases, releaseId(target.commit));
      fs.mkdirSync(p.releases, { recursive: true });
      fs.renameSync(p.build, firstDir);
      writeStatus(p.status, { state: "live" });
    } finally {
      unlock();
    }
    const sampled = await sampler.stop();
    expect(sampled.leaks).toEqual([]);
    // The sampler saw git talk to the host (by the URL without the token), so it looked while it mattered.
    expect(sampled.git.filter((line) => line.includes("git-remote-http") && line.includes(cleanUrl))).not.toEqual([]);
    // The host asked for the credential, and git gave it (from the helper: nothing else had it).
    expect(host.counts.challenged).toBeGreaterThan(before.challenged);
    expect(host.counts.served).toBeGreaterThan(before.served);
    expect(host.counts.refused).toBe(before.refused);

    expect(fs.readFileSync(path.join(firstDir, "data", "home.yaml"), "utf8")).toBe('title: "Welcome to Cyrus"\n');
    expect(fs.existsSync(path.join(firstDir, ".git"))).toBe(false);
    // The drafts are in the mirror (git ls-remote would list them too), never in a release.
    expect(git(root, ["--git-dir", p.mirror, "for-each-ref", "--format=%(refname)", "refs/heads/cms"])).toBe(
      `refs/heads/${DRAFT}`,
    );
    expect(fs.existsSync(path.join(firstDir, "data", "posts"))).toBe(false);
  });

  test("a second fetch, into the mirror that exists, uses the credential again and gets the new commit", async () => {
    const p = paths(root);
    commits.push(push("main", "src/site-service/index.ts", "export const changed = true;\n", "Service: a change"));
    push(`${DRAFT}-2`, "data/posts/second.md", "Another draft\n", "Create Posts “second”");
    const sampler = sampleCommandLines(SECRETS);
    const before = { ...host.counts };
    await updateMirror(settings.repo, p.mirror);
    const target = await resolveCommit(p.mirror, settings.branch);
    const dir = path.join(p.releases, releaseId(target.commit, new Date(Date.now() + 1000)));
    await checkout(p.mirror, target.commit, dir);
    const serviceChanged = await changed(p.mirror, commits[0]!, target.commit, settings.servicePaths);
    const dataChanged = await changed(p.mirror, commits[0]!, target.commit, ["data"]);
    const sampled = await sampler.stop();

    expect(target).toMatchObject({ commit: commits[1], title: "Service: a change" });
    expect({ serviceChanged, dataChanged }).toEqual({ serviceChanged: true, dataChanged: false });
    expect(fs.readFileSync(path.join(dir, "src", "site-service", "index.ts"), "utf8")).toContain("changed = true");
    expect(fs.existsSync(path.join(dir, ".git"))).toBe(false);
    expect(sampled.leaks).toEqual([]);
    expect(sampled.git.filter((line) => line.includes("git-remote-http") && line.includes(cleanUrl))).not.toEqual([]);
    expect(host.counts.served).toBeGreaterThan(before.served);
    expect(host.counts.refused).toBe(before.refused);
  });

  test("afterwards the token is in no file of the release root but the settings, and the mirror's config has the clean URL", () => {
    const p = paths(root);
    expect(filesHoldingSecrets(root, [path.join(p.shared, "release.env")])).toEqual([]);
    expect(git(root, ["--git-dir", p.mirror, "config", "--get", "remote.origin.url"])).toBe(cleanUrl);
    expect(fs.readFileSync(path.join(p.mirror, "config"), "utf8")).not.toContain("@");
    expect(fs.readdirSync(p.mirror).filter((name) => name.startsWith("release-index"))).toEqual([]);
  });

  test("modes: the mirror 700, the settings 600 (the lock 600 while held); shared/ stays open to nginx and the service", () => {
    const p = paths(root);
    expect(mode(p.mirror)).toBe(MIRROR_MODE);
    expect(MIRROR_MODE).toBe(0o700);
    expect(mode(path.join(p.shared, "release.env"))).toBe(0o600);
    expect(LOCK_MODE).toBe(0o600);
    // The code leaves shared/ itself as it was made (755 by the setup's install -d).
    expect(mode(p.shared) & 0o005).toBe(0o005);
  });

  (isRoot ? test : test.skip)(
    "another user (nobody) can open no ref or pack of the mirror, the drafts' included, nor the settings or the lock",
    () => {
      const p = paths(root);
      const nobody = {
        uid: Number(spawnSync("id", ["-u", "nobody"]).stdout),
        gid: Number(spawnSync("id", ["-g", "nobody"]).stdout),
      };
      expect(nobody.uid).toBeGreaterThan(0);
      /** What `cat` says opening the file as nobody: "" when it could read it, else the error's text. */
      const openAsNobody = (file: string) => {
        const result = spawnSync("cat", ["--", file], { ...nobody, encoding: "utf8" });
        return result.status === 0
          ? ""
          : result.stderr
              .trim()
              .replace(`${file}: `, "")
              .replace(/^cat: /, "");
      };
      const mirrorFiles: string[] = [];
      const walk = (folder: string) => {
        for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
          const file = path.join(folder, entry.name);
          if (entry.isDirectory()) walk(file);
          else mirrorFiles.push(file);
        }
      };
      walk(p.mirror);
      const refsAndPacks = mirrorFiles.filter((file) =>
        /(^|\/)(packed-refs|refs\/.+|objects\/.+|config|HEAD|FETCH_HEAD)$/.test(path.relative(p.mirror, file)),
      );
      // The drafts are there (loose refs or packed-refs), and packs hold their objects.
      expect(refsAndPacks.some((file) => /objects\/pack\/.+\.pack$/.test(file))).toBe(true);
      const draftRefs = [
        ...mirrorFiles.filter((file) => path.relative(p.mirror, file).startsWith("refs/heads/cms/")),
        ...mirrorFiles.filter((file) => fs.readFileSync(file, "latin1").includes(`refs/heads/${DRAFT}`)),
      ];
      expect(draftRefs).not.toEqual([]);
      const unlock = acquireLock(p.lock);
      try {
        const opened = [...refsAndPacks, ...draftRefs, path.join(p.shared, "release.env"), p.lock].map((file) => ({
          file: path.relative(root, file),
          error: openAsNobody(file),
        }));
        expect(opened.filter((o) => o.error !== "Permission denied")).toEqual([]);
        // Listing the mirror is refused as well.
        expect(spawnSync("ls", [p.mirror], { ...nobody, encoding: "utf8" }).stderr).toContain("Permission denied");
      } finally {
        unlock();
      }
      // What nginx and the service read stays readable: the status in shared/, a release's files.
      expect(openAsNobody(p.status)).toBe("");
      const release = fs.readdirSync(p.releases)[0]!;
      expect(openAsNobody(path.join(p.releases, release, "data", "home.yaml"))).toBe("");
    },
  );

  test("a wrong token or none fails the fetch at once, without the token in the message", async () => {
    const wrong = fs.mkdtempSync(path.join(base, "wrong-"));
    const refusedBefore = host.counts.refused;
    const started = Date.now();
    const withWrongToken = serverSettings(wrong, cleanUrl.replace("//", `//${USERNAME}:not-${TOKEN.slice(4)}@`));
    const error = await updateMirror(withWrongToken.repo, paths(wrong).mirror).then(
      () => new Error("fetched"),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/Authentication failed|401/);
    expect(SECRETS.some((secret) => error.message.includes(secret))).toBe(false);
    expect(error.message).not.toContain(TOKEN.slice(4));
    expect(host.counts.refused).toBeGreaterThan(refusedBefore);
    const none = await updateMirror(parseRepository(cleanUrl), path.join(wrong, "none.git")).then(
      () => new Error("fetched"),
      (e: Error) => e,
    );
    expect(none.message).toMatch(/terminal prompts disabled|Authentication failed/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test("refs from outside go after --end-of-options: one that looks like an option is not a commit or branch, and nothing runs", async () => {
    const p = paths(root);
    const marker = path.join(base, "option-ran");
    await expect(resolveCommit(p.mirror, `--output=${marker}`)).rejects.toThrow(
      `--output=${marker} is not a commit or branch of the repository`,
    );
    // changed(): a ref it cannot read counts as a change (the service restarts: the safe side).
    await expect(changed(p.mirror, `--output=${marker}`, commits[1]!, ["."])).resolves.toBe(true);
    await expect(checkout(p.mirror, `--index-output=${marker}`, path.join(base, "not-a-release"))).rejects.toThrow();
    await expect(
      updateMirror({ url: `--upload-pack=touch ${marker}` }, path.join(base, "option-mirror.git")),
    ).rejects.toThrow();
    // Nothing was written by an option (log's would be named option-ran^{commit}).
    expect(fs.readdirSync(base).filter((name) => name.startsWith("option-ran"))).toEqual([]);
  });
});

test("a server of an earlier version: the token leaves the mirror's config, the mirror becomes 700, and releases lose their .git", async () => {
  const old = path.join(base, "old");
  const oldSettings = serverSettings(old);
  const p = paths(old);
  await updateMirror(oldSettings.repo, p.mirror);
  // As the earlier version left them: `git clone --mirror <RELEASE_REPO>` kept the URL as written,
  // in a folder of mode 755, and each release was a clone of the mirror (its packs hard-linked).
  const config = path.join(p.mirror, "config");
  fs.writeFileSync(config, fs.readFileSync(config, "utf8").replace(cleanUrl, tokenUrl()));
  fs.chmodSync(p.mirror, 0o755);
  const oldRelease = path.join(p.releases, "20260101T000000Z-0000000");
  fs.mkdirSync(p.releases, { recursive: true });
  git(old, ["clone", "--quiet", "--no-checkout", p.mirror, oldRelease]);
  expect(filesHoldingSecrets(old, [path.join(p.shared, "release.env")])).toEqual(["shared/repo.git/config"]);

  // What the next release does: first the releases' .git, then the fetch.
  removeReleaseRepositories(p.releases);
  const sampler = sampleCommandLines(SECRETS);
  await updateMirror(oldSettings.repo, p.mirror);
  expect((await sampler.stop()).leaks).toEqual([]);
  expect(fs.existsSync(path.join(oldRelease, ".git"))).toBe(false);
  expect(mode(p.mirror)).toBe(0o700);
  expect(git(old, ["--git-dir", p.mirror, "config", "--get", "remote.origin.url"])).toBe(cleanUrl);
  expect(filesHoldingSecrets(old, [path.join(p.shared, "release.env")])).toEqual([]);
});
