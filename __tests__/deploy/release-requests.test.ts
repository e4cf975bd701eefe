/**
 * The push hook's requests folder, read by the release's user, can be written by the service's user
 * (docs/server-design.md, "The push hook's note"): whatever that user leaves there as the note,
 * the release reads at most a small regular file and is never held up. A link to /dev/zero, a FIFO
 * and a 1 GB file are each refused with a line saying what it was, and `--wanted` (runner.ts's
 * releaseWhenWanted, run as its own process) ends within seconds without releasing. No build: the
 * release never starts.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { markReleaseWanted, takeReleaseWanted, WANTED_FILE, type ReleaseWanted } from "../../src/site-service";
import { projectRoot } from "../support/serve";
import { chownTree, releaseUser } from "./support/release-user";

jest.setTimeout(120_000);

const SCRIPT = path.join(projectRoot, "__tests__/deploy/support/release-runner.ts");
/** How long `--wanted` may take here: a bound for a busy machine (it takes about 2 s), not a measure. */
const BOUND_MS = 60_000;

let base: string;
let folder: string;
let root: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "release-requests-"));
  folder = path.join(base, "requests");
  root = path.join(base, "root");
  fs.mkdirSync(folder);
  fs.mkdirSync(root);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

const notePath = () => path.join(folder, WANTED_FILE);
const wanted: ReleaseWanted = { branch: "main", commit: "a".repeat(40), host: "github", at: "2026-01-01T00:00:00Z" };

/** releaseWhenWanted in a process of its own, killed at the bound: its exit code and output. */
function releaseWhenWanted(): Promise<{ code: number | string; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, "wanted"], {
    cwd: projectRoot,
    env: {
      ...process.env,
      RELEASE_ROOT: root,
      // Never reached: no release starts.
      RELEASE_REPO: path.join(base, "no-such-repository.git"),
      RELEASE_LIVE_URL: "http://127.0.0.1:9",
      RELEASE_REQUESTS_DIR: folder,
      RELEASE_LOCK_WAIT_SECONDS: "5",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), BOUND_MS);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? "unknown", output, ms: Date.now() - started });
    }),
  );
}

describe.each([
  {
    what: "a symbolic link to /dev/zero",
    make: () => fs.symlinkSync("/dev/zero", notePath()),
    line: "it is a symbolic link",
  },
  {
    what: "a FIFO (no writer)",
    make: () => {
      const made = spawnSync("mkfifo", ["-m", "660", notePath()], { encoding: "utf8" });
      if (made.status !== 0) throw new Error(`mkfifo: ${made.stderr}`);
    },
    line: "it is not a regular file (a FIFO)",
  },
  {
    what: "a 1 GB file (sparse)",
    make: () => {
      const fd = fs.openSync(notePath(), "w", 0o660);
      fs.ftruncateSync(fd, 1024 ** 3);
      fs.closeSync(fd);
    },
    line: `it is too large (${1024 ** 3} bytes`,
  },
  {
    what: "a folder",
    make: () => fs.mkdirSync(notePath()),
    line: "it is not a regular file (a folder)",
  },
])("the note is $what", ({ make, line }) => {
  test("--wanted refuses it with a line saying what it was, removes it, ends at once and releases nothing", async () => {
    make();
    const result = await releaseWhenWanted();
    // Its output when it did not end well (killed at the bound: it hung).
    if (result.code !== 0) throw new Error(`exit ${result.code} after ${result.ms} ms:\n${result.output}`);
    console.log(`--wanted with ${line.replace(/^it is /, "")}: ${result.ms} ms`);
    expect(result.output).toContain(`release: the release request ${WANTED_FILE} is refused and removed: ${line}`);
    expect(result.output).toContain("release: no release is wanted");
    expect(result.output).toContain("released 0, failed 0");
    expect(result.output).not.toContain("wanted by a push");
    // Nothing was released or fetched (only the lock's file, taken before the note), nothing is left in
    // the folder, and the path unit has nothing to start for.
    expect(fs.readdirSync(root)).toEqual(["shared"]);
    expect(fs.readdirSync(path.join(root, "shared"))).toEqual(["release.lock.db"]);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});

describe("takeReleaseWanted", () => {
  const refusals: string[] = [];
  const take = () => takeReleaseWanted(folder, (message) => refusals.push(message));
  beforeEach(() => (refusals.length = 0));

  test("a note the service wrote is taken, as before, and nothing is left behind", () => {
    markReleaseWanted(folder, wanted);
    expect(fs.statSync(notePath()).mode & 0o777).toBe(0o660);
    expect(take()).toEqual(wanted);
    expect(refusals).toEqual([]);
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(take()).toBeNull();
  });

  test("a link to a file is refused and removed; the file it points to is neither read nor changed", () => {
    const secret = path.join(base, "release.env");
    fs.writeFileSync(secret, JSON.stringify(wanted), { mode: 0o600 });
    fs.symlinkSync(secret, notePath());
    expect(take()).toBeNull();
    expect(refusals).toEqual([`the release request ${WANTED_FILE} is refused and removed: it is a symbolic link`]);
    expect(fs.readFileSync(secret, "utf8")).toBe(JSON.stringify(wanted));
    expect(fs.statSync(secret).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  test("a hard link to another file is refused, and that file stays", () => {
    const other = path.join(base, "other.json");
    fs.writeFileSync(other, JSON.stringify(wanted));
    fs.linkSync(other, notePath());
    expect(take()).toBeNull();
    expect(refusals).toEqual([
      `the release request ${WANTED_FILE} is refused and removed: it is a hard link to another file`,
    ]);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  test("a small file that is no note, and one just over the limit, are refused", () => {
    fs.writeFileSync(notePath(), "not json\n");
    expect(take()).toBeNull();
    fs.writeFileSync(notePath(), JSON.stringify({ branch: "main" }));
    expect(take()).toBeNull();
    fs.writeFileSync(notePath(), JSON.stringify({ ...wanted, padding: "x".repeat(5000) }));
    expect(take()).toBeNull();
    expect(refusals).toEqual([
      `the release request ${WANTED_FILE} is refused and removed: it is not a release request (JSON with its branch, commit, host and time)`,
      `the release request ${WANTED_FILE} is refused and removed: it is not a release request (JSON with its branch, commit, host and time)`,
      expect.stringMatching(/is refused and removed: it is too large \(\d+ bytes; a note is at most 4096\)$/),
    ]);
  });

  test("a folder is refused: removed when empty, left under another name when not; the next note is taken", () => {
    fs.mkdirSync(notePath());
    expect(take()).toBeNull();
    fs.mkdirSync(notePath());
    fs.writeFileSync(path.join(notePath(), "inside"), "");
    expect(take()).toBeNull();
    expect(refusals[0]).toBe(
      `the release request ${WANTED_FILE} is refused and removed: it is not a regular file (a folder)`,
    );
    expect(refusals[1]).toMatch(
      /is refused and left as \.release-wanted\.json\.taken-[0-9a-f]+ \(a folder with files in it\): it is not a regular file \(a folder\)$/,
    );
    const [left] = fs.readdirSync(folder);
    expect(fs.readdirSync(path.join(folder, left!))).toEqual(["inside"]);
    // Left under a name of its own: it does not stand in the way of the next note.
    markReleaseWanted(folder, wanted);
    expect(take()).toEqual(wanted);
  });

  // Two users: as root (CI), the release's test user and another in its group, the service's part.
  (process.getuid!() === 0 ? test : test.skip)(
    "a note the release put back (its own file) is replaced by the service's next one, as the folder is not sticky",
    () => {
      const user = releaseUser();
      fs.chmodSync(base, 0o755);
      chownTree(folder, user);
      fs.chmodSync(folder, 0o2770);
      // What a runner of before put back (a note taken while the lock was held): the release user's
      // file, of the folder's group, mode 660.
      markReleaseWanted(folder, wanted);
      fs.chownSync(notePath(), user.uid, user.gid);
      // The service's user: not the release user, in the folder's group; it writes a note and renames
      // it into place, as markReleaseWanted does (a shell: this process's Node is not theirs to run).
      const newer = { ...wanted, commit: "b".repeat(40) };
      const service = spawnSync(
        "sh",
        [
          "-c",
          'umask 077 && printf "%s" "$1" > "$2.tmp" && chmod 660 "$2.tmp" && mv -f "$2.tmp" "$2"',
          "sh",
          JSON.stringify(newer),
          notePath(),
        ],
        { uid: 65534, gid: user.gid, encoding: "utf8" },
      );
      expect({ status: service.status, stderr: service.stderr }).toEqual({ status: 0, stderr: "" });
      expect(take()).toEqual(newer);
      expect(refusals).toEqual([]);
    },
  );
});
