/**
 * A rollback holds (deploy/release/history.ts, schema.ts), without any build: release folders made
 * here as layout.ts writes them (releases/<id>/.release.json, the `current` symlink, the history in
 * shared/), a real git repository for what the push note and the timer see, and for the rollback
 * itself a stand-in for the live site that answers /home as nginx would for `current`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { markReleaseWanted, WANTED_FILE } from "../../src/site-service";
import {
  currentPause,
  decide,
  historyFile,
  readHistory,
  recordLive,
  replay,
  rollbackTarget,
  toPrune,
} from "../../deploy/release/history";
import {
  INFO_FILE,
  paths,
  readInfo,
  switchCurrent,
  writeJsonAtomically,
  type ReleaseInfo,
} from "../../deploy/release/layout";
import { rollback } from "../../deploy/release/release";
import { parseRepository } from "../../deploy/release/repository";
import { releaseIfMoved, releaseWhenWanted, whatToRelease } from "../../deploy/release/runner";
import { migrations, schemaRefusal } from "../../deploy/release/schema";
import type { Settings } from "../../deploy/release/settings";
import { readStatus } from "../../deploy/release/status";

// Git and the lock in this process, several times a test: a bound for a busy 2-core machine, not a measure.
jest.setTimeout(60_000);

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

const SQLITE = "src/site-service/enquiries/store/migrations/sqlite";
const BASE_MIGRATIONS = ["001-enquiries.sql", "002-outbox.sql"];

/** A release root with releases made one a minute apart, in the order they are added. */
function fabricate() {
  const root = tempDir("release-history-");
  fs.mkdirSync(paths(root).releases, { recursive: true });
  fs.mkdirSync(paths(root).shared, { recursive: true });
  let minute = 0;
  const add = (name: string, commit = name.repeat(40).slice(0, 40), sqlite = BASE_MIGRATIONS): ReleaseInfo => {
    minute += 1;
    const id = `20261126T10${String(minute).padStart(2, "0")}00Z-${commit.slice(0, 7)}`;
    const dir = path.join(paths(root).releases, id);
    fs.mkdirSync(path.join(dir, SQLITE), { recursive: true });
    for (const file of sqlite) fs.writeFileSync(path.join(dir, SQLITE, file), "-- a migration\n");
    fs.mkdirSync(path.join(dir, "public", "home"), { recursive: true });
    fs.writeFileSync(path.join(dir, "public", "home", "index.html"), `<p>${name}</p>`);
    const info: ReleaseInfo = {
      id,
      commit,
      title: `Release ${name}`,
      commitTime: "2026-11-26T10:00:00Z",
      builtAt: "2026-11-26T10:00:00Z",
      buildHash: `hash-${name}`,
      homeStamp: 1_700_000_000 + minute,
    };
    writeJsonAtomically(path.join(dir, INFO_FILE), info);
    return info;
  };
  /** As release() does once a release is live: the switch, then the record. */
  const goLive = (info: ReleaseInfo) => {
    const previous = fs.existsSync(paths(root).current)
      ? path.basename(fs.readlinkSync(paths(root).current))
      : undefined;
    switchCurrent(root, info.id);
    recordLive(root, info, "release", previous);
  };
  return { root, add, goLive };
}

/** The live site as nginx answers for `current`: /home with its build's hash and its stamp's ETag. */
async function liveSite(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const info = readInfo(paths(root).current);
    if (req.url !== "/home" || !info) return void res.writeHead(404).end();
    res.writeHead(200, { etag: `"${info.homeStamp!.toString(16)}-20"` }).end(`<html>${info.buildHash}</html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const settingsFor = (root: string, extra: Partial<Settings> = {}): Settings => ({
  root,
  repo: parseRepository(path.join(root, "no-repository")),
  branch: "main",
  keep: 5,
  buildEnv: {},
  nginxArgs: [],
  nginxTest: "true",
  nginxReload: "true",
  rootNginxConf: path.join(root, "no-root-nginx"),
  serviceRestart: "true",
  npmCi: "false",
  servicePaths: ["src/site-service"],
  liveUrl: "http://127.0.0.1:9",
  liveTimeoutMs: 10_000,
  lockWaitMs: 0,
  ...extra,
});

const liveId = (root: string) => path.basename(fs.readlinkSync(paths(root).current));
const quietly = () => {
  jest.spyOn(console, "log").mockImplementation(() => undefined);
  jest.spyOn(console, "error").mockImplementation(() => undefined);
};
afterEach(() => jest.restoreAllMocks());

describe("where --rollback goes", () => {
  test("after E→D and then F, back to D: never E, the release D was rolled back from", () => {
    const { root, add, goLive } = fabricate();
    const [c, d, e] = [add("c"), add("d"), add("e")];
    for (const info of [c, d, e]) goLive(info);
    expect(rollbackTarget(root)?.id).toBe(d.id);
    // The rollback, as rollback() records it.
    switchCurrent(root, d.id);
    recordLive(root, d, "rollback", e.id);
    expect(rollbackTarget(root)?.id).toBe(c.id);
    const f = add("f");
    goLive(f);
    // By id, the release before F is E: the one that was bad.
    expect(rollbackTarget(root)?.id).toBe(d.id);
    switchCurrent(root, d.id);
    recordLive(root, d, "rollback", f.id);
    expect(rollbackTarget(root)?.id).toBe(c.id);
    expect(replay(readHistory(root), d.id)).toEqual({
      stack: [c.id, d.id],
      rolledBackFrom: new Set([e.id, f.id]),
    });
  });

  test("rollback(): E→D, F released, rollback to D, again to C; the status says paused, the history holds each", async () => {
    quietly();
    const { root, add, goLive } = fabricate();
    const [c, d, e] = [add("c"), add("d"), add("e")];
    for (const info of [c, d, e]) goLive(info);
    const site = await liveSite(root);
    try {
      const settings = settingsFor(root, { liveUrl: site.url });
      expect((await rollback(settings)).id).toBe(d.id);
      expect(liveId(root)).toBe(d.id);
      expect(readStatus(paths(root).status)).toMatchObject({
        state: "live",
        live: { id: d.id, commit: d.commit },
        paused: {
          rolledBackFrom: { commit: e.commit, title: "Release e" },
          resume: expect.stringContaining("npm run release"),
        },
      });
      const f = add("f");
      goLive(f);
      expect((await rollback(settings)).id).toBe(d.id);
      expect((await rollback(settings)).id).toBe(c.id);
      expect(readHistory(root).map((entry) => [entry.id, entry.by])).toEqual([
        [c.id, "release"],
        [d.id, "release"],
        [e.id, "release"],
        [d.id, "rollback"],
        [f.id, "release"],
        [d.id, "rollback"],
        [c.id, "rollback"],
      ]);
      // Nothing further back: said plainly, nothing switched.
      await expect(rollback(settings)).rejects.toThrow("there is no earlier release to roll back to");
      expect(liveId(root)).toBe(c.id);
      expect(fs.existsSync(paths(root).lock)).toBe(false);
    } finally {
      await site.close();
    }
  });

  test("a server whose runner kept no history: the release before the live one by id, then along the history", () => {
    const { root, add } = fabricate();
    const [c, d, e] = [add("c"), add("d"), add("e")];
    switchCurrent(root, e.id);
    expect(rollbackTarget(root)?.id).toBe(d.id);
    // The first rollback with a history records what was live before it ("found"), then goes on from there.
    switchCurrent(root, d.id);
    recordLive(root, d, "rollback", e.id);
    expect(readHistory(root).map((entry) => entry.by)).toEqual(["found", "rollback"]);
    expect(rollbackTarget(root)?.id).toBe(c.id);
    expect(currentPause(readHistory(root))?.held).toEqual([e.commit]);
  });

  test("a release switched by an older runner (no record) counts as live after the last one recorded", () => {
    const { root, add, goLive } = fabricate();
    const [c, d] = [add("c"), add("d")];
    goLive(c);
    switchCurrent(root, d.id);
    expect(rollbackTarget(root)?.id).toBe(c.id);
    const e = add("e");
    goLive(e);
    expect(readHistory(root).map((entry) => [entry.id, entry.by])).toEqual([
      [c.id, "release"],
      [d.id, "found"],
      [e.id, "release"],
    ]);
    expect(rollbackTarget(root)?.id).toBe(d.id);
  });
});

describe("pruning", () => {
  test("keeps the release --rollback goes to, however old, and the live one", () => {
    const { root, add, goLive } = fabricate();
    const [c, d, e] = [add("c"), add("d"), add("e")];
    for (const info of [c, d, e]) goLive(info);
    switchCurrent(root, d.id);
    recordLive(root, d, "rollback", e.id);
    const f = add("f");
    goLive(f);
    // Newest two by id: E and F. D, older, is where a rollback from F goes: kept; C goes.
    expect(toPrune(root, 2)).toEqual([c.id]);
    const g = add("g");
    goLive(g);
    expect(toPrune(root, 2)).toEqual([c.id, d.id, e.id]);
    expect(toPrune(root, 5)).toEqual([]);
  });
});

describe("what the push note and the timer do", () => {
  const head = (commit: string, title = "Head") => ({ commit, title });

  test("the decision: rolled-back-from head waits, the live head is up to date, a new commit is released", () => {
    const { root, add, goLive } = fabricate();
    const [d, e] = [add("d"), add("e")];
    goLive(d);
    goLive(e);
    expect(currentPause(readHistory(root))).toBeUndefined();
    switchCurrent(root, d.id);
    recordLive(root, d, "rollback", e.id);
    const pause = currentPause(readHistory(root))!;
    expect(pause).toMatchObject({ rolledBackFrom: { id: e.id, commit: e.commit }, held: [e.commit] });
    expect(decide(head(e.commit), d.commit, pause)).toMatchObject({ release: false, outcome: "paused" });
    expect(decide(head(d.commit), d.commit, pause)).toMatchObject({ release: false, outcome: "up to date" });
    expect(decide(head("f".repeat(40)), d.commit, pause)).toEqual({ release: true });
    // The timer does not try again the commit whose release failed.
    expect(decide(head("f".repeat(40)), d.commit, pause, "f".repeat(40))).toMatchObject({ outcome: "up to date" });
    // Rolled back once more, from D to C: neither E nor D is released by itself; the pause began at E.
    const c = add("c");
    switchCurrent(root, c.id);
    recordLive(root, c, "rollback", d.id);
    const deeper = currentPause(readHistory(root))!;
    expect(deeper).toMatchObject({ since: pause.since, rolledBackFrom: { id: e.id }, held: [e.commit, d.commit] });
    expect(decide(head(d.commit), c.commit, deeper)).toMatchObject({ outcome: "paused" });
    // A release that goes live (an editor's fix, or a person's npm run release) ends it.
    goLive(add("f"));
    expect(currentPause(readHistory(root))).toBeUndefined();
  });

  /** A repository with commits d, e, f on main, and a release root whose releases are of d and e. */
  function withRepository() {
    const base = tempDir("release-runner-");
    const repo = path.join(base, "site.git");
    const work = path.join(base, "work");
    const git = (cwd: string, ...args: string[]) => {
      const result = spawnSync("git", ["-c", "user.name=Editor", "-c", "user.email=e@example.com", ...args], {
        cwd,
        encoding: "utf8",
      });
      if (result.status !== 0) throw new Error(result.stderr);
      return result.stdout.trim();
    };
    git(base, "init", "--quiet", "--bare", "--initial-branch=main", repo);
    git(base, "clone", "--quiet", repo, work);
    const commit = (name: string) => {
      fs.writeFileSync(path.join(work, "page.txt"), name);
      git(work, "add", "page.txt");
      git(work, "commit", "--quiet", "-m", `Release ${name}`);
      git(work, "push", "--quiet", "origin", "HEAD:main");
      return git(work, "rev-parse", "HEAD");
    };
    const { root, add, goLive } = fabricate();
    const requests = path.join(base, "requests");
    fs.mkdirSync(requests);
    const d = add("d", commit("d"));
    const e = add("e", commit("e"));
    goLive(d);
    goLive(e);
    const settings = settingsFor(root, { repo: parseRepository(repo), requestsDir: requests });
    return { root, settings, requests, commit, d, e };
  }

  test("five notes for the live head: each taken, nothing built, the releases and the history as they were", async () => {
    quietly();
    const { root, settings, requests, e } = withRepository();
    const releases = fs.readdirSync(paths(root).releases);
    const history = fs.readFileSync(historyFile(root), "utf8");
    for (let i = 0; i < 5; i += 1) {
      markReleaseWanted(requests, { branch: "main", commit: e.commit, host: "github", at: new Date().toISOString() });
      expect(await releaseWhenWanted(settings)).toEqual({ released: 0, failed: 0 });
      expect(fs.existsSync(path.join(requests, WANTED_FILE))).toBe(false);
    }
    expect(await releaseIfMoved(settings)).toBe("up to date");
    expect(fs.readdirSync(paths(root).releases)).toEqual(releases);
    expect(fs.readFileSync(historyFile(root), "utf8")).toBe(history);
    expect(console.log).toHaveBeenCalledWith(expect.stringContaining("release: up to date:"));
  });

  test("after a rollback, the timer and a replayed note release nothing; a new commit is released", async () => {
    quietly();
    const { root, settings, requests, commit, d, e } = withRepository();
    switchCurrent(root, d.id);
    recordLive(root, d, "rollback", e.id);
    expect(await releaseIfMoved(settings)).toBe("paused");
    markReleaseWanted(requests, { branch: "main", commit: e.commit, host: "github", at: new Date().toISOString() });
    expect(await releaseWhenWanted(settings)).toEqual({ released: 0, failed: 0 });
    expect(fs.existsSync(path.join(requests, WANTED_FILE))).toBe(false);
    expect(console.log).toHaveBeenCalledWith(expect.stringContaining("release: automatic releases are paused since"));
    expect(liveId(root)).toBe(d.id);
    // An editor's fix: the head moves on, and it is what an automatic release builds.
    const fix = commit("f");
    const { head, decision } = await whatToRelease(settings, true);
    expect({ head: head.commit, decision }).toEqual({ head: fix, decision: { release: true } });
  });
});

describe("a rollback and the store's schema", () => {
  test("refused when the release rolled back to lacks a migration the live one has, naming it; --force goes", async () => {
    quietly();
    const { root, add, goLive } = fabricate();
    const d = add("d");
    const e = add("e", undefined, [...BASE_MIGRATIONS, "003-release-notes.sql"]);
    goLive(d);
    goLive(e);
    expect(schemaRefusal(root, e, d)).toMatch(
      /^refusing to roll back to \S+-ddddddd \(Release d\): the live release \S+-eeeeeee has the store's migration sqlite\/003-release-notes\.sql, .*--rollback --force/,
    );
    const site = await liveSite(root);
    try {
      const settings = settingsFor(root, { liveUrl: site.url });
      await expect(rollback(settings)).rejects.toThrow("sqlite/003-release-notes.sql");
      expect(liveId(root)).toBe(e.id);
      expect(readHistory(root)).toHaveLength(2);
      expect(readStatus(paths(root).status)).toBeUndefined();
      expect((await rollback(settings, true)).id).toBe(d.id);
      expect(liveId(root)).toBe(d.id);
    } finally {
      await site.close();
    }
  });

  test("the same migrations, or where they were before the service moved: no refusal", () => {
    const { root, add } = fabricate();
    const d = add("d");
    const e = add("e");
    expect(schemaRefusal(root, e, d)).toBeUndefined();
    // Rolling back to the newer schema's code is no risk either.
    const f = add("f", undefined, [...BASE_MIGRATIONS, "003-release-notes.sql"]);
    expect(schemaRefusal(root, d, f)).toBeUndefined();
    const old = path.join(paths(root).releases, d.id);
    fs.renameSync(path.join(old, "src/site-service"), path.join(old, "src/enquiry-receiver"));
    fs.renameSync(path.join(old, "src/enquiry-receiver/enquiries/store"), path.join(old, "src/enquiry-receiver/store"));
    expect([...migrations(old).values()]).toEqual(["sqlite/001-enquiries.sql", "sqlite/002-outbox.sql"]);
    expect(schemaRefusal(root, e, d)).toBeUndefined();
  });

  test("a migration that says older code can still use the database it leaves (compatible-from): no refusal", () => {
    const { root, add } = fabricate();
    const d = add("d");
    const e = add("e", undefined, [...BASE_MIGRATIONS, "003-release-notes.sql", "004-more-notes.sql"]);
    const sqliteOf = (release: ReleaseInfo) => path.join(paths(root).releases, release.id, SQLITE);
    fs.writeFileSync(path.join(sqliteOf(e), "003-release-notes.sql"), "-- compatible-from: 2\nALTER TABLE x ADD y;\n");
    // 004 needs code that knows 003 at least: d's code (002) is too old for it.
    fs.writeFileSync(path.join(sqliteOf(e), "004-more-notes.sql"), "-- compatible-from: 3\nCREATE TABLE z (a);\n");
    expect(schemaRefusal(root, e, d)).toMatch(/has the store's migration sqlite\/004-more-notes\.sql, which/);
    fs.writeFileSync(path.join(sqliteOf(e), "004-more-notes.sql"), "-- compatible-from: 2\nCREATE TABLE z (a);\n");
    expect(schemaRefusal(root, e, d)).toBeUndefined();
  });
});
