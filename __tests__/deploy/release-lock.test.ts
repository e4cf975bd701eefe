/**
 * One release at a time, even after a crash (deploy/release/lock.ts): each taker and holder is a
 * process of its own (support/lock-process.ts), as two releases are, and holders are killed with
 * SIGKILL, as systemd kills a unit. No build, no CLI (it refuses root, and these tests may run as
 * root): the lock's module itself, which the CLI's every release, rollback and --if-moved go through.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { markReleaseWanted, WANTED_FILE } from "../../src/site-service";
import { projectRoot } from "../support/serve";
import { until } from "./support/until";

jest.setTimeout(120_000);

const SCRIPT = path.join(projectRoot, "__tests__/deploy/support/lock-process.ts");
/** Bounds for a busy 2-core machine (a process starts in about a second), not measures. */
const START_MS = 30_000;

interface LockProcess {
  pid: number;
  output(): string;
  exited: Promise<number | string>;
  ended(): boolean;
  /** Its exit code or signal, once ended. */
  code(): number | string | null;
  send(line: string): void;
  /** Ends its stdin: a holder lets go and exits. */
  end(): void;
  kill(): Promise<void>;
}

let base: string;
let lock: string;
const started: LockProcess[] = [];
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "release-lock-"));
  lock = path.join(base, "release.lock");
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((proc) => proc.kill()));
  fs.rmSync(base, { recursive: true, force: true });
});

function lockProcess(args: string[], env: NodeJS.ProcessEnv = {}): LockProcess {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const proc: LockProcess = {
    pid: child.pid!,
    output: () => output,
    exited,
    ended: () => child.exitCode !== null || child.signalCode !== null,
    code: () => child.exitCode ?? child.signalCode,
    send: (line) => child.stdin.write(`${line}\n`),
    end: () => child.stdin.end(),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
  started.push(proc);
  return proc;
}

/** A process that holds the lock (its note written), until its stdin ends or it is killed. */
async function holder(): Promise<LockProcess> {
  const proc = lockProcess(["take", lock]);
  await until(
    () => proc.output().includes(`took ${proc.pid}`),
    START_MS,
    `the holder to take the lock:\n${proc.output()}`,
  );
  return proc;
}

/** What lockHolder says, asked by a process of its own. */
async function lockHolder(): Promise<{ pid?: number; since?: string } | null> {
  const proc = lockProcess(["holder", lock]);
  expect(await proc.exited).toBe(0);
  return JSON.parse(proc.output()) as { pid?: number } | null;
}

/** A taker that tries once, with its stdin closed: it lets go at once if it took the lock. */
async function tryOnce(env: NodeJS.ProcessEnv = {}): Promise<{ code: number | string; output: string }> {
  const proc = lockProcess(["take", lock], env);
  proc.end();
  return { code: await proc.exited, output: proc.output() };
}

const note = () => JSON.parse(fs.readFileSync(lock, "utf8")) as { pid: number; since: string };

test("a live holder keeps the next release out at once (exit 3, naming it); when it ends, nothing of it is left", async () => {
  const held = await holder();
  expect(note()).toMatchObject({ pid: held.pid });
  expect(await lockHolder()).toMatchObject({ pid: held.pid, since: note().since });

  const second = await tryOnce();
  expect(second.code).toBe(3);
  expect(second.output).toContain(
    `release: another release is running (pid ${held.pid}, since ${note().since}; lock ${lock}): wait for it to finish`,
  );
  expect(second.output).not.toContain("took");

  held.end();
  expect(await held.exited).toBe(0);
  expect(held.output()).toContain("released");
  expect(fs.existsSync(lock)).toBe(false);
  expect(await lockHolder()).toBeNull();
  const third = await tryOnce();
  expect(third.code).toBe(0);
  expect(third.output).not.toContain("taking it over");
});

test("a holder killed with SIGKILL leaves its note but holds nothing: the next release says so and takes over", async () => {
  const killed = await holder();
  await killed.kill();
  expect(note().pid).toBe(killed.pid);
  expect(await lockHolder()).toBeNull();

  const next = await tryOnce();
  expect(next.code).toBe(0);
  expect(next.output).toContain(
    `release: the lock of pid ${killed.pid} is left over (that process is gone): taking it over`,
  );
  expect(fs.existsSync(lock)).toBe(false);
});

test("two takers after a killed release, in the same moment of taking over: exactly one proceeds, the other is refused (exit 3)", async () => {
  const killed = await holder();
  await killed.kill();
  // Each taker, once it has read the left-over note, waits 3 s before writing its own: with a lock
  // that is only that note, both would read the dead holder there and both would go on.
  const env = { RELEASE_TEST_TAKEOVER_PAUSE_MS: "3000" };
  const takers = [lockProcess(["take", lock, "--on-go"], env), lockProcess(["take", lock, "--on-go"], env)];
  await until(() => takers.every((t) => t.output().includes("ready")), START_MS, "both takers to be ready");
  for (const taker of takers) taker.send("go");

  // Each has either taken the lock (and holds it) or ended: exactly one of each.
  const took = (taker: LockProcess) => taker.output().includes(`took ${taker.pid}`);
  await until(() => takers.every((t) => took(t) || t.ended()), START_MS, "both takers to take the lock or end");
  await Promise.all(takers.filter((t) => !took(t)).map((t) => t.exited));
  expect(takers.map((t) => (took(t) ? "took" : `exit ${t.code()}`)).sort()).toEqual(["exit 3", "took"]);
  const winner = takers.find(took)!;
  const refused = takers.find((t) => !took(t))!;
  expect(refused.output()).toMatch(/release: another release is running \(.*\): wait for it to finish\n$/);
  expect(winner.output()).toContain(
    `release: the lock of pid ${killed.pid} is left over (that process is gone): taking it over`,
  );
  expect(note().pid).toBe(winner.pid);
  expect(await lockHolder()).toMatchObject({ pid: winner.pid });
  // Still one at a time: a third is refused while the winner holds the lock.
  expect((await tryOnce()).code).toBe(3);
  winner.end();
  expect(await winner.exited).toBe(0);
  expect(fs.existsSync(lock)).toBe(false);
});

test("lockHolder says held while a live process holds the lock, even before that process has written its note", async () => {
  const killed = await holder();
  await killed.kill();
  // A taker held in the middle of its takeover: it holds the lock, the note still names the dead one.
  const taking = lockProcess(["take", lock], { RELEASE_TEST_TAKEOVER_PAUSE_MS: "600000" });
  await until(() => taking.output().includes("taking it over"), START_MS, "the taker to take over");
  expect(note().pid).toBe(killed.pid);
  expect(await lockHolder()).toEqual({});
  const refused = await tryOnce();
  expect(refused.code).toBe(3);
  expect(refused.output).toContain("another release is running (it has just taken the lock; lock ");
  // Killed there too: the lock goes with it.
  await taking.kill();
  expect(await lockHolder()).toBeNull();
  expect((await tryOnce()).code).toBe(0);
});

test("a note of a live process with the lock free (a runner of the lock before this one) keeps the next release out", async () => {
  // The form the lock before this one wrote with link(): this test process is that live holder.
  const stat = fs.readFileSync(`/proc/${process.pid}/stat`, "utf8");
  const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, start, since: "2026-01-01T00:00:00Z" }));
  expect(await lockHolder()).toMatchObject({ pid: process.pid });
  const refused = await tryOnce();
  expect(refused.code).toBe(3);
  expect(refused.output).toContain(`another release is running (pid ${process.pid}, since 2026-01-01T00:00:00Z;`);
  expect(note().pid).toBe(process.pid);
});

test("a holder that has ended but is not yet reaped (a zombie) counts as gone: the next release takes over", async () => {
  // `sleep 0.2 &` is the holder; its parent becomes `sleep 60` (exec), which never reaps it.
  const parent = spawn("sh", ["-c", "sleep 0.2 & echo $!; exec sleep 60"], { stdio: ["ignore", "pipe", "ignore"] });
  try {
    let out = "";
    parent.stdout.on("data", (chunk) => (out += chunk));
    await until(() => /^\d+\n/.test(out), START_MS, "the holder's pid");
    const zombie = Number(out.trim());
    const stat = () => fs.readFileSync(`/proc/${zombie}/stat`, "utf8");
    const fields = () =>
      stat()
        .slice(stat().lastIndexOf(")") + 2)
        .split(" ");
    await until(() => fields()[0] === "Z", START_MS, "the holder to end unreaped");
    // Its note, as the holder wrote it while it ran (the transaction went with its end).
    fs.writeFileSync(lock, JSON.stringify({ pid: zombie, start: fields()[19], since: "2026-01-01T00:00:00Z" }));
    expect(fs.existsSync(`/proc/${zombie}`)).toBe(true);
    expect(await lockHolder()).toBeNull();
    const next = await tryOnce();
    expect(next.code).toBe(0);
    expect(next.output).toContain(
      `release: the lock of pid ${zombie} is left over (that process is gone): taking it over`,
    );
    expect(fs.existsSync(lock)).toBe(false);
  } finally {
    parent.kill("SIGKILL");
  }
});

test("node:sqlite's experimental warning is not printed; other warnings still are", async () => {
  const proc = lockProcess(["warn", lock]);
  expect(await proc.exited).toBe(0);
  expect(proc.output()).toContain("TestWarning: printed as Node prints it");
  expect(proc.output()).not.toContain("ExperimentalWarning");
  expect(proc.output()).not.toContain("SQLite");
});

describe("--if-moved (the timer) and --wanted (a push's note)", () => {
  const RUNNER = path.join(projectRoot, "__tests__/deploy/support/release-runner.ts");
  let root: string;
  let record: string;
  let requests: string;
  /** A `git` first on PATH that writes down the lock's note as it is when git runs, then fails. */
  beforeEach(() => {
    root = path.join(base, "root");
    fs.mkdirSync(path.join(root, "shared"), { recursive: true });
    lock = path.join(root, "shared", "release.lock");
    record = path.join(base, "note-at-fetch");
    requests = path.join(base, "requests");
    fs.mkdirSync(requests);
    const bin = path.join(base, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, "git"),
      `#!/bin/sh\ncat '${lock}' > '${record}' 2>/dev/null || echo none > '${record}'\necho 'git: not here' >&2\nexit 1\n`,
      { mode: 0o755 },
    );
  });

  async function runner(
    command: "if-moved" | "wanted",
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number | string; output: string; pid: number }> {
    const child = spawn(process.execPath, ["--import", "tsx", RUNNER, command], {
      cwd: projectRoot,
      env: {
        ...process.env,
        PATH: `${path.join(base, "bin")}:${process.env.PATH ?? ""}`,
        RELEASE_ROOT: root,
        RELEASE_REPO: path.join(base, "site.git"),
        RELEASE_LIVE_URL: "http://127.0.0.1:9",
        RELEASE_REQUESTS_DIR: requests,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise<number | string>((resolve) =>
      child.on("close", (exit, signal) => resolve(exit ?? signal ?? "unknown")),
    );
    return { code, output, pid: child.pid! };
  }
  const ifMoved = () => runner("if-moved");

  test("takes the lock before it fetches into the mirror, and lets go after", async () => {
    const result = await ifMoved();
    // The fetch failed (the stand-in git), under the lock: its note named this run.
    expect(result.code).toBe(1);
    expect(result.output).toContain("git: not here");
    expect(JSON.parse(fs.readFileSync(record, "utf8"))).toMatchObject({ pid: result.pid });
    expect(fs.existsSync(lock)).toBe(false);
  });

  test("while a release holds the lock, it says busy and fetches nothing", async () => {
    const held = await holder();
    const result = await ifMoved();
    expect(result.code).toBe(0);
    expect(result.output).toContain("outcome: busy");
    expect(fs.existsSync(record)).toBe(false);
    expect(note().pid).toBe(held.pid);
  });

  const wanted = { branch: "main", commit: "a".repeat(40), host: "github", at: "2026-01-01T00:00:00Z" };

  test("--wanted takes the lock before it fetches into the mirror, and lets go after", async () => {
    markReleaseWanted(requests, wanted);
    const result = await runner("wanted");
    // The note was taken and the fetch failed (the stand-in git), under the lock: its note named this run.
    expect(result.output).toContain("release: wanted by a push to main");
    expect(result.output).toContain("git: not here");
    expect(result.output).toContain("released 0, failed 1");
    expect(JSON.parse(fs.readFileSync(record, "utf8"))).toMatchObject({ pid: result.pid });
    expect(fs.existsSync(lock)).toBe(false);
  });

  test("while a release holds the lock, --wanted waits its bound, fetches nothing and leaves the note", async () => {
    const held = await holder();
    markReleaseWanted(requests, wanted);
    const result = await runner("wanted", { RELEASE_LOCK_WAIT_SECONDS: "3" });
    expect(result.code).toBe(0);
    expect(result.output).toContain("release: another release is still running; the request stays for the next start");
    expect(fs.existsSync(record)).toBe(false);
    expect(fs.existsSync(path.join(requests, WANTED_FILE))).toBe(true);
    expect(note().pid).toBe(held.pid);
  });
});
