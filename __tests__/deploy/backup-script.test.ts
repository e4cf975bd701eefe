/**
 * deploy/server/backup, as root runs it for cyrus-backup.timer and for a restore (docs/server-reference.md,
 * "Backups"), into a temporary --root, on a SQLite store with the service's CLI run by --enquiries
 * (this checkout's, as root: the tests' Node is root's) instead of the service's user's release; the
 * store's three enquiries are JSON lines its first open imports. A
 * run makes an age-encrypted backup in root's folder (700) as root's file (600) with the erasure log
 * beside it, and writes the state doctor reads; the next run finds nothing due; retention keeps the
 * newest n, or the last n days; the first backup restored with the newest log into an empty store
 * leaves out the address erased after it; GPG instead of age; a copy that fails leaves nothing
 * half-written and says so; settings another user could change, a folder that is a link or
 * another's, and wrong values are refused. The CLI gets nothing of the caller's environment, only
 * the service's settings (enquiry.env read as lines, never run), in a session of its own. No run
 * leaves tsx's cache in the temporary folder.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runEnquiriesCli } from "../../src/site-service";
import { projectRoot } from "./support/stack";

const isRoot = process.getuid!() === 0;
const SCRIPT = path.join(projectRoot, "deploy", "server", "backup");
const ENQUIRIES = `${process.execPath} --import tsx ${path.join(projectRoot, "src/site-service/bin/enquiries.ts")}`;
const BACKUPS = "/mnt/backups";
const NAME = /^enquiries-(\d{8}T\d{6}Z)\.sqlite\.(age|gpg)$/;
const ERASED = "Leave.Me@Example.ORG";

let root = "";
let identity = "";
let recipient = "";
let key = "";
const at = (p: string) => path.join(root, p);
const dataDir = (name = "enquiries") => at(`var/lib/cyrus/${name}`);

function backup(
  args: string[],
  options: { enquiries?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(SCRIPT, ["--root", root, "--enquiries", options.enquiries ?? ENQUIRIES, ...args], {
      cwd: projectRoot,
      // Looked at after each test: tsx must have left no cache there (the CLI runs with it off).
      env: { ...process.env, TMPDIR: at("tmp"), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function settings(lines: Record<string, string>): void {
  const text = Object.entries(lines).map(([k, v]) => `${k}=${v}\n`);
  fs.writeFileSync(at("etc/cyrus/backup.env"), `# the tests'\n${text.join("")}`, { mode: 0o600 });
}

function enquirySettings(dir: string): void {
  fs.writeFileSync(at("etc/cyrus/enquiry.env"), `ENQUIRY_DATA_DIR=${dir}\nENQUIRY_ERASURE_KEY=${key}\n`, {
    mode: 0o600,
  });
}

const backupsNow = () =>
  fs
    .readdirSync(at(BACKUPS))
    .filter((f) => NAME.test(f))
    .sort();

function state(): Record<string, string> {
  return Object.fromEntries(
    fs
      .readFileSync(at("var/lib/cyrus-backup/last-backup"), "utf8")
      .split("\n")
      .filter((line) => /^[a-z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/** Waits (2 s at most) for the clock's next second: two backups are never named alike. */
async function nextSecond(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  for (let i = 0; i < 40 && Math.floor(Date.now() / 1000) === now; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function cli(args: string[], dir = dataDir()) {
  const out: string[] = [];
  const code = await runEnquiriesCli(
    args,
    { ENQUIRY_DATA_DIR: dir, ENQUIRY_ERASURE_KEY: key },
    { out: (l) => out.push(l), err: (l) => out.push(l) },
  );
  return { code, out };
}

/**
 * Three enquiries, as the store's import finds them in its folder (JSON lines of an earlier
 * version): the first run's CLI moves them into the database.
 */
function fill(): void {
  fs.mkdirSync(dataDir(), { recursive: true, mode: 0o700 });
  const lines = (
    [
      [1, "one@example.in"],
      [2, ERASED],
      [3, "three@example.in"],
    ] as const
  ).map(([n, email]) =>
    JSON.stringify({
      v: 3,
      id: `enq-${n}`,
      receivedAt: new Date(Date.now() - 3600_000 + n).toISOString(),
      name: `Visitor ${n}`,
      phone: "",
      email,
      message: `About study ${n}`,
      screening: { verdict: "clean", signals: [] },
      delivery: "pending",
    }),
  );
  fs.writeFileSync(path.join(dataDir(), "enquiries.jsonl"), `${lines.join("\n")}\n`, { mode: 0o600 });
}

(isRoot ? describe : describe.skip)("deploy/server/backup", () => {
  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-backup-"));
    for (const dir of ["etc/cyrus", "mnt", "var/lib/cyrus", "tmp"])
      fs.mkdirSync(at(dir), { recursive: true, mode: 0o755 });
    fs.writeFileSync(at("etc/passwd"), "root:x:0:0:root:/root:/bin/bash\n");
    identity = path.join(root, "identity.txt");
    expect(spawnSync("age-keygen", ["-o", identity]).status).toBe(0);
    recipient = /public key: (age1\S+)/.exec(fs.readFileSync(identity, "utf8"))![1]!;
    key = crypto.randomBytes(32).toString("base64");
    enquirySettings(dataDir());
    settings({ BACKUP_DIR: BACKUPS, BACKUP_RECIPIENT: recipient, BACKUP_KEEP: "3" });
    fill();
  });
  afterEach(() => {
    try {
      // Nothing left in the temporary folder: no transpiled code of tsx's (another user could plant
      // some there for the service's user to run), nor root's own scratch folder.
      expect(fs.readdirSync(at("tmp"))).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test("run: encrypted to the recipient, root's alone, the erasure log beside it; the next run finds nothing due", async () => {
    const made = await backup(["run"]);
    expect(made).toMatchObject({ code: 0, stderr: expect.stringMatching(/^backup of .* made at .*: \d+ KiB$/m) });
    expect(made.stdout).toMatch(/^backup: \/mnt\/backups\/ made \(root's, mode 700\)$/m);
    expect(made.stdout).toMatch(
      /^backup: \/mnt\/backups\/enquiries-\d{8}T\d{6}Z\.sqlite\.age made \(\d+ bytes, encrypted: age\)$/m,
    );
    const [file] = backupsNow();
    expect(backupsNow()).toHaveLength(1);
    const mode = (p: string) => {
      const s = fs.statSync(p);
      return `${s.uid}:${s.gid} ${(s.mode & 0o777).toString(8)}`;
    };
    expect(mode(at(BACKUPS))).toBe("0:0 700");
    expect(mode(at(`${BACKUPS}/${file}`))).toBe("0:0 600");
    expect(mode(at(`${BACKUPS}/erasures.log`))).toBe("0:0 600");
    expect(fs.readdirSync(at(BACKUPS)).sort()).toEqual([file, "erasures.log"]);

    // Not a database without the identity; the store with it.
    const bytes = fs.readFileSync(at(`${BACKUPS}/${file}`));
    expect(bytes.subarray(0, 21).toString("latin1")).toBe("age-encryption.org/v1");
    for (const needle of [ERASED, ERASED.toLowerCase(), "Visitor 1", "SQLite format 3", "CREATE TABLE"]) {
      expect(bytes.includes(Buffer.from(needle))).toBe(false);
    }
    const plain = spawnSync("age", ["--decrypt", "--identity", identity, at(`${BACKUPS}/${file}`)]);
    expect(plain.stdout.subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");

    const madeAt = NAME.exec(file!)![1]!;
    expect(state()).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      result: "made",
      message: expect.stringMatching(new RegExp(`^${file!.replace(/\./g, "\\.")} made; 1 kept; backup of `)),
      file,
      bytes: String(bytes.length),
      last_made: `${madeAt.slice(0, 4)}-${madeAt.slice(4, 6)}-${madeAt.slice(6, 8)}T${madeAt.slice(9, 11)}:${madeAt.slice(11, 13)}:${madeAt.slice(13, 15)}Z`,
      failures: "0",
      erasure_key: "set",
    });
    expect(fs.statSync(at("var/lib/cyrus-backup/last-backup")).mode & 0o777).toBe(0o644);

    // The interval (1 h by default) has not passed: nothing said, nothing made.
    expect(await backup(["run"])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(backupsNow()).toEqual([file]);
  }, 120_000);

  test("retention: the newest n, or those of the last n days; the newest always; other files left alone", async () => {
    const stamp = (msAgo: number) =>
      new Date(Date.now() - msAgo)
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z");
    const planted = [5, 4, 3, 2].map((days) => `enquiries-${stamp(days * 86_400_000)}.sqlite.age`);
    for (const name of [...planted, "notes.txt", "enquiries-old.sqlite"]) {
      fs.mkdirSync(at(BACKUPS), { recursive: true, mode: 0o700 });
      fs.writeFileSync(at(`${BACKUPS}/${name}`), "x", { mode: 0o600 });
    }
    const kept = await backup(["run", "--force"]);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/^backup: 2 older backup\(s\) removed \(BACKUP_KEEP=3\)$/m);
    const [newest] = backupsNow().slice(-1);
    expect(backupsNow()).toEqual([planted[2], planted[3], newest]);

    settings({ BACKUP_DIR: BACKUPS, BACKUP_RECIPIENT: recipient, BACKUP_KEEP: "3d" });
    await nextSecond();
    expect((await backup(["run", "--force"])).code).toBe(0);
    expect(backupsNow()).toEqual([planted[3], newest, backupsNow().at(-1)]);
    expect(fs.existsSync(at(`${BACKUPS}/notes.txt`))).toBe(true);
    expect(fs.existsSync(at(`${BACKUPS}/enquiries-old.sqlite`))).toBe(true);

    // The newest stays whatever the setting says.
    settings({ BACKUP_DIR: BACKUPS, BACKUP_RECIPIENT: recipient, BACKUP_KEEP: "1" });
    await nextSecond();
    expect((await backup(["run", "--force"])).code).toBe(0);
    expect(backupsNow()).toHaveLength(1);
  }, 120_000);

  test("restore: the first backup with the newest erasure log, into an empty store: the address erased since is gone", async () => {
    expect((await backup(["run"])).code).toBe(0);
    const [first] = backupsNow();
    expect(await cli(["erase", "--email", ERASED])).toMatchObject({ code: 0 });
    await nextSecond();
    // The next backup writes the newest log (nothing but hashes and times).
    expect((await backup(["run", "--force"])).code).toBe(0);
    const log = fs.readFileSync(at(`${BACKUPS}/erasures.log`), "utf8");
    expect(log.split("\n").filter((l) => l.startsWith("v1 "))).toHaveLength(1);
    expect(log.toLowerCase()).not.toContain(ERASED.toLowerCase());

    // A new server's store: empty.
    enquirySettings(dataDir("fresh"));
    const file = at(`${BACKUPS}/${first}`);
    const locked = await backup(["restore", file]);
    expect(locked).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/is encrypted \(age\): give --identity KEYFILE/),
    });
    const restored = await backup(["restore", file, "--identity", identity]);
    expect(restored.stderr).toBe("");
    expect(restored).toMatchObject({ code: 0 });
    expect(restored.stdout.split("\n")).toEqual([
      expect.stringMatching(/^backup: restoring .*\.sqlite\.age \(age\) into the sqlite store$/),
      expect.stringMatching(
        /^restored the backup made at .* into .*fresh\/enquiries\.sqlite: 3 enquiries, 0 people of the inbox$/,
      ),
      "erasures made after the backup: 1 of 1 replayed, removing 1 enquiry",
      expect.stringMatching(/^ended 0 sessions/),
      "",
    ]);
    const listed = await cli(["list", "--json"], dataDir("fresh"));
    expect(listed.out.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(["enq-1", "enq-3"]);
    const hits = fs
      .readdirSync(dataDir("fresh"))
      .filter((f) => fs.readFileSync(path.join(dataDir("fresh"), f)).includes(Buffer.from(ERASED.toLowerCase())));
    expect(hits).toEqual([]);

    // Into a store that is not empty: refused, nothing changed.
    const again = await backup(["restore", file, "--identity", identity]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /holds 2 enquiries and 0 people of the inbox: a backup is restored into an empty store only/,
    );

    // A new server before its backup settings: the log copied from the backups, given by its path.
    fs.rmSync(at("etc/cyrus/backup.env"));
    enquirySettings(dataDir("newer"));
    const copied = path.join(root, "erasures-copy.log");
    fs.copyFileSync(at(`${BACKUPS}/erasures.log`), copied);
    expect(await backup(["restore", file, "--identity", identity])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no erasure log: BACKUP_DIR is not set; give --erasures LOG, or --no-erasure-log/),
    });
    const given = await backup(["restore", file, "--identity", identity, "--erasures", copied]);
    expect(given).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("\nerasures made after the backup: 1 of 1 replayed"),
    });
  }, 120_000);

  test("GPG: encrypted to root's public key file, restored with the secret key file", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-backup-gpg-"));
    try {
      const gpg = (...args: string[]) =>
        spawnSync("gpg", [
          "--batch",
          "--quiet",
          "--homedir",
          home,
          "--pinentry-mode",
          "loopback",
          "--passphrase",
          "",
          ...args,
        ]);
      expect(gpg("--quick-gen-key", "Cyrus backups <backups@example.org>", "default", "default", "never").status).toBe(
        0,
      );
      fs.writeFileSync(at("etc/cyrus/backup-key.asc"), gpg("--armor", "--export").stdout, { mode: 0o644 });
      const secret = path.join(home, "secret.asc");
      fs.writeFileSync(secret, gpg("--armor", "--export-secret-keys").stdout, { mode: 0o600 });
      settings({ BACKUP_DIR: BACKUPS, BACKUP_RECIPIENT: "/etc/cyrus/backup-key.asc" });

      const made = await backup(["run"]);
      expect(made.stdout).toMatch(/\.sqlite\.gpg made \(\d+ bytes, encrypted: gpg\)$/m);
      const [file] = backupsNow();
      expect(fs.readFileSync(at(`${BACKUPS}/${file}`)).includes(Buffer.from("SQLite format 3"))).toBe(false);
      enquirySettings(dataDir("fresh"));
      const restored = await backup(["restore", at(`${BACKUPS}/${file}`), "--identity", secret]);
      expect(restored).toMatchObject({ code: 0, stdout: expect.stringMatching(/: 3 enquiries, 0 people/) });
    } finally {
      spawnSync("gpgconf", ["--homedir", home, "--kill", "gpg-agent"]);
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);

  test("a copy that fails: exit code 1, nothing half-written, the state says so; the earlier backups stay", async () => {
    expect((await backup(["run"])).code).toBe(0);
    const before = backupsNow();
    // The store out of reach: a PostgreSQL that does not answer.
    fs.appendFileSync(at("etc/cyrus/enquiry.env"), "DATABASE_URL=postgresql://cyrus@127.0.0.1:1/cyrus\n");
    await nextSecond();
    const failed = await backup(["run", "--force"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^backup: FAILED: no backup made \(exit status 1\): /m);
    expect(fs.readdirSync(at(BACKUPS)).sort()).toEqual([...before, "erasures.log"].sort());
    expect(state()).toMatchObject({
      result: "failed",
      failures: "1",
      file: "",
      message: expect.stringMatching(/^no backup made/),
    });
  }, 120_000);

  test("the CLI: nothing of the caller's environment, the service's settings read as lines (never run), a session of its own", async () => {
    // A stand-in for the CLI: what it was given, in a file of root's folder; a backup's bytes on stdout.
    const seen = at("seen.txt");
    fs.writeFileSync(
      at("fake-cli"),
      [
        "{",
        // Fields 6 and 7 of its stat: its session, its controlling terminal.
        "  read -r _pid _comm _state _ppid _pgrp session tty _rest </proc/$$/stat",
        '  echo "leader=$([ "$session" = $$ ] && echo yes || echo no) tty=$tty"',
        "  env | LC_ALL=C sort | sed 's/^/env:/'",
        '  echo "args:$*"',
        `} >>${seen}`,
        '[ "$1" != backup ] || echo "a backup\'s bytes"',
        "",
      ].join("\n"),
    );
    const planted = at("ran");
    fs.appendFileSync(at("etc/cyrus/enquiry.env"), `SITE_URL=$(touch ${planted})\nENQUIRY_TO='ops@example.com'\n`);
    const result = await backup(["run"], {
      enquiries: `/bin/sh ${at("fake-cli")}`,
      env: { CYRUS_TEST_LEAK: "root's", NODE_OPTIONS: "--require /nonexistent/planted.js" },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(fs.existsSync(planted)).toBe(false);
    const text = fs.readFileSync(seen, "utf8");
    expect(text.match(/^args:.*$/gm)).toEqual(["args:backup --out -", "args:erasure-log"]);
    // Every run of the CLI: the leader of a session of its own, no terminal; the service's settings alone.
    expect(text.match(/^leader=.*$/gm)).toEqual(["leader=yes tty=0", "leader=yes tty=0"]);
    const env = Object.fromEntries(
      text
        .split("\n")
        .filter((line) => line.startsWith("env:"))
        .map((line) => [line.slice(4, line.indexOf("=")), line.slice(line.indexOf("=") + 1)])
        .filter(([name]) => name !== "PWD"),
    );
    expect(env).toEqual({
      PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
      NODE_ENV: "production",
      ENQUIRY_DATA_DIR: dataDir(),
      ENQUIRY_ERASURE_KEY: key,
      SITE_URL: `$(touch ${planted})`,
      ENQUIRY_TO: "ops@example.com",
      HOME: "/nonexistent",
      TSX_DISABLE_CACHE: "1",
    });
  }, 120_000);

  test("refused: settings another user could change, a folder that is a link or another's, wrong values", async () => {
    const refused = async (expected: RegExp) => {
      const result = await backup(["run", "--force"]);
      expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(expected) });
      expect(fs.existsSync(at(`${BACKUPS}`)) ? backupsNow() : []).toEqual([]);
    };
    fs.chmodSync(at("etc/cyrus/backup.env"), 0o666);
    await refused(/refused: \/etc\/cyrus\/backup\.env may be changed by a user other than root \(owner 0, mode 666\)/);
    fs.chmodSync(at("etc/cyrus/backup.env"), 0o600);
    settings({ BACKUP_DIR: "/mnt/elsewhere" });
    fs.mkdirSync(at("somewhere"));
    fs.symlinkSync(at("somewhere"), at("mnt/elsewhere"));
    await refused(/refused: \/mnt\/elsewhere is a symbolic link, not a folder/);
    fs.mkdirSync(at("mnt/theirs"), { mode: 0o700 });
    fs.chownSync(at("mnt/theirs"), 65534, 65534);
    settings({ BACKUP_DIR: "/mnt/theirs" });
    await refused(/refused: \/mnt\/theirs is owned by user 65534, not root/);
    settings({ BACKUP_DIR: "/var/lib/cyrus/backups" });
    await refused(/BACKUP_DIR \/var\/lib\/cyrus\/backups: not there/);
    settings({ BACKUP_DIR: BACKUPS, BACKUP_INTERVAL: "5x" });
    await refused(/BACKUP_INTERVAL "5x" is not <n>m, <n>h or <n>d/);
    settings({ BACKUP_DIR: BACKUPS, BACKUP_KEEP: "0" });
    await refused(/BACKUP_KEEP "0" is not <n>/);
    settings({ BACKUP_DIR: BACKUPS, BACKUP_RECIPIENT: "someone@example.org" });
    await refused(/BACKUP_RECIPIENT "someone@example.org" is neither an age or SSH public key nor the absolute path/);
    settings({ BACKUP_DIR: "" });
    await refused(/BACKUP_DIR is not set/);
  }, 120_000);
});
