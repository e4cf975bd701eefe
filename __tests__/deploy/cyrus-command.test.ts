/**
 * deploy/server/cyrus, the owner's one command (docs/server.md), run as root with --root: a server
 * whose units are the project's (deploy/systemd), installed as the set-up installs them, whose users
 * are in its etc/passwd, and whose live release (/srv/cyrus/current, the release user's link) holds
 * stand-ins for the release's two CLIs: shell scripts that print who runs them (uid, groups), where
 * (the folder), in which session, with what environment and which arguments, run by a stand-in Node
 * at the units' /usr/bin/node. Root's own scripts (doctor, backup, certificates) are stand-ins too.
 *
 * `cyrus enquiries …` runs the service's CLI as cyrus, and `cyrus release …` the release CLI as
 * cyrus-release: none of root's groups, in the live release, in a session of their own, with the
 * environment their units give (the service's settings file read as lines, never run) and nothing of
 * the caller's; every argument as it was given; stdin handed on, the exit code handed back, Ctrl-C
 * passed on. doctor, backup and certificates run root's scripts with their arguments. Refused in
 * one line, with nothing run: another user than root, an unknown command, settings or a unit that
 * another user could change, no release live.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "./support/stack";

const isRoot = process.getuid!() === 0;
const SCRIPT = path.join(projectRoot, "deploy", "server", "cyrus");
const CYRUS = { uid: 64101, gid: 64101 };
const RELEASE = { uid: 64102, gid: 64102 };
const NOBODY = 65534;
const RELEASE_ID = "20261201T090000Z-abc1234";
/** What the caller's environment holds that must not reach the release's code. */
const CALLERS = { CYRUS_TEST_LEAK: "root's", NODE_OPTIONS: "--require /nonexistent/planted.js" };
/** The service's settings, as the owner writes them (a line that sh would run among them). */
const ENQUIRY_ENV = [
  "# the service's settings",
  'SMTP_URL="smtp://mail.example.com:587"',
  "ENQUIRY_TO=ops@example.com",
  "SITE_URL=https://www.cyrus.example",
  "",
  "ENQUIRY_ALERT_TO='owner@example.com'",
].join("\n");

let root = "";
const at = (p: string) => path.join(root, p);
const release = () => at(`srv/cyrus/releases/${RELEASE_ID}`);

/** A stand-in for the release's CLI: who, where, which session, the environment and the arguments. */
const FAKE_CLI = `#!/bin/sh
echo "uid=$(id -u) gid=$(id -g) groups=$(id -G)"
echo "cwd=$(pwd -P)"
# Fields 6 and 7 of its stat: its session, its controlling terminal.
set -- "$@" --
read -r _pid _comm _state _ppid _pgrp session _tty _rest </proc/$$/stat
echo "leader=$([ "$session" = $$ ] && echo yes || echo no)"
env | LC_ALL=C sort | sed 's/^/env:/'
while [ "$1" != -- ]; do
  case "$1" in
    --stdin) echo "stdin:[$(cat)]" ;;
    --exit=*) code=\${1#--exit=} ;;
    --wait)
      trap 'echo interrupted; exit 130' INT
      echo waiting
      i=0
      while [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
      ;;
  esac
  printf 'arg:[%s]\\n' "$1"
  shift
done
exit \${code:-0}
`;

/** A stand-in for root's script: that it ran, as whom, with which arguments. */
const fakeScript = (name: string) => `#!/bin/sh
echo "${name} uid=$(id -u)"
for arg in "$@"; do printf 'arg:[%s]\\n' "$arg"; done
exit 3
`;

function write(file: string, text: string, mode = 0o644, owner = { uid: 0, gid: 0 }): void {
  fs.mkdirSync(path.dirname(at(file)), { recursive: true, mode: 0o755 });
  fs.writeFileSync(at(file), text, { mode });
  fs.chmodSync(at(file), mode);
  fs.chownSync(at(file), owner.uid, owner.gid);
}

function run(args: string[], options: { as?: number; input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const command =
    options.as === undefined
      ? [SCRIPT]
      : ["setpriv", `--reuid=${options.as}`, `--regid=${options.as}`, "--clear-groups", SCRIPT];
  const result = spawnSync(command[0]!, [...command.slice(1), "--root", root, ...args], {
    encoding: "utf8",
    input: options.input ?? "",
    env: { ...process.env, ...CALLERS, ...options.env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const lines = (stdout: string, prefix: string) =>
  stdout
    .split("\n")
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length));
/** The environment the CLI saw, less what its own sh adds (PWD). */
const envOf = (stdout: string) =>
  Object.fromEntries(
    lines(stdout, "env:")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)])
      .filter(([key]) => key !== "PWD"),
  );
const argsOf = (stdout: string) => lines(stdout, "arg:").map((line) => line.replace(/^\[|\]$/g, ""));
/** A unit's Environment= lines, as the set-up installed it. */
const unitEnv = (unit: string) =>
  Object.fromEntries(
    [...fs.readFileSync(at(`etc/systemd/system/${unit}`), "utf8").matchAll(/^Environment="?([A-Z_]+)=(.*?)"?$/gm)].map(
      (m) => [m[1]!, m[2]!],
    ),
  );

(isRoot ? describe : describe.skip)("deploy/server/cyrus", () => {
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-command-")));
    fs.chmodSync(root, 0o755);
    write(
      "etc/passwd",
      [
        "root:x:0:0:root:/root:/bin/bash",
        `cyrus:x:${CYRUS.uid}:${CYRUS.gid}::/nonexistent:/usr/sbin/nologin`,
        `cyrus-release:x:${RELEASE.uid}:${RELEASE.gid}::/srv/cyrus:/usr/sbin/nologin`,
        "",
      ].join("\n"),
    );
    for (const unit of ["cyrus-enquiry.service", "cyrus-release.service"])
      write(`etc/systemd/system/${unit}`, fs.readFileSync(path.join(projectRoot, "deploy/systemd", unit), "utf8"));
    write("etc/cyrus/enquiry.env", ENQUIRY_ENV, 0o600);
    // The units' Node: runs `--import tsx FILE args` as sh would run FILE.
    write(
      "usr/bin/node",
      '#!/bin/sh\n[ "$1" = --import ] && [ "$2" = tsx ] || exit 97\nshift 2\nexec /bin/sh "$@"\n',
      0o755,
    );
    for (const name of ["doctor", "backup", "certificates"])
      write(`usr/local/lib/cyrus/${name}`, fakeScript(name), 0o755);
    // The release root: the release user's, the live release a link it made.
    for (const file of ["src/site-service/bin/enquiries.ts", "deploy/release/cli.ts"])
      write(`srv/cyrus/releases/${RELEASE_ID}/${file}`, FAKE_CLI, 0o644, RELEASE);
    spawnSync("chown", ["-R", `${RELEASE.uid}:${RELEASE.gid}`, at("srv/cyrus")]);
    fs.symlinkSync(`releases/${RELEASE_ID}`, at("srv/cyrus/current"));
    fs.lchownSync(at("srv/cyrus/current"), RELEASE.uid, RELEASE.gid);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test("enquiries: the service's CLI as cyrus, in the live release, its own session, with the unit's environment and the settings as lines, nothing of the caller's", () => {
    const result = run(["enquiries", "people"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`uid=${CYRUS.uid} gid=${CYRUS.gid} groups=${CYRUS.gid}\n`);
    expect(result.stdout).toContain(`cwd=${release()}\n`);
    expect(result.stdout).toContain("leader=yes\n");
    const unit = unitEnv("cyrus-enquiry.service");
    expect(unit).toMatchObject({ NODE_ENV: "production", ENQUIRY_DATA_DIR: "/var/lib/cyrus/enquiries" });
    expect(envOf(result.stdout)).toEqual({
      PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
      HOME: "/nonexistent",
      USER: "cyrus",
      LOGNAME: "cyrus",
      ...unit,
      // The settings file after the unit's lines, its quotes taken off; the one line sh would run, as written.
      SMTP_URL: "smtp://mail.example.com:587",
      ENQUIRY_TO: "ops@example.com",
      SITE_URL: "https://www.cyrus.example",
      ENQUIRY_ALERT_TO: "owner@example.com",
      TSX_DISABLE_CACHE: "1",
    });
    expect(argsOf(result.stdout)).toEqual(["people"]);
  });

  test("enquiries: every argument as given (spaces, quotes, globs, dollars, empty), stdin handed on, the exit code handed back", () => {
    const args = [
      "invite",
      "ana@example.com",
      "--name",
      "Ana  Lima",
      "",
      "*",
      "$HOME",
      'it\'s "quoted"',
      "--stdin",
      "--exit=5",
    ];
    const result = run(["enquiries", ...args], { input: "a backup's bytes\n" });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(5);
    expect(argsOf(result.stdout)).toEqual(args);
    expect(result.stdout).toContain("stdin:[a backup's bytes]\n");
  });

  test("enquiries: a settings line sh would run is passed as it is written, and runs nothing", () => {
    const planted = path.join(root, "ran");
    write("etc/cyrus/enquiry.env", `${ENQUIRY_ENV}\nSMTP_URL=$(touch ${planted})\n`, 0o600);
    const result = run(["enquiries", "status"]);
    expect(result.code).toBe(0);
    expect(envOf(result.stdout).SMTP_URL).toBe(`$(touch ${planted})`);
    expect(fs.existsSync(planted)).toBe(false);
  });

  test("release: the release CLI as cyrus-release with the release unit's environment (none of the service's settings), its arguments as given", () => {
    for (const args of [[], ["--list"], ["--rollback", "--force"], ["--commit", "3f2c9a1"]]) {
      const result = run(["release", ...args]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`uid=${RELEASE.uid} gid=${RELEASE.gid} groups=${RELEASE.gid}\n`);
      expect(result.stdout).toContain(`cwd=${release()}\n`);
      expect(result.stdout).toContain("leader=yes\n");
      expect(argsOf(result.stdout)).toEqual(args);
      const unit = unitEnv("cyrus-release.service");
      expect(unit).toMatchObject({
        RELEASE_ROOT: "/srv/cyrus",
        HOME: "/srv/cyrus/shared/home",
        TSX_DISABLE_CACHE: "1",
      });
      expect(envOf(result.stdout)).toEqual({
        PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
        USER: "cyrus-release",
        LOGNAME: "cyrus-release",
        ...unit,
      });
    }
  });

  test("Ctrl-C reaches the release's command, and its exit code is cyrus's", async () => {
    const child = spawn(SCRIPT, ["--root", root, "enquiries", "--wait"], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    for (let i = 0; i < 100 && !stdout.includes("waiting\n"); i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(stdout).toContain("waiting\n");
    child.kill("SIGINT");
    expect(await closed).toBe(130);
    expect(stdout).toContain("interrupted\n");
  });

  test.each([
    ["doctor", ["--notify"]],
    ["backup", ["restore", "/mnt/backups/enquiries-20261207T040000Z.sqlite.age", "--identity", "my key.txt"]],
    ["certificates", ["renew", "--force"]],
  ])("%s: root's own script, as root, with its arguments (and --root)", (name, args) => {
    const result = run([name, ...args]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(3);
    expect(result.stdout.split("\n")[0]).toBe(`${name} uid=0`);
    expect(argsOf(result.stdout)).toEqual(["--root", root, ...args]);
  });

  test("help lists every command, for anyone", () => {
    const result = run(["help"], { as: NOBODY });
    expect(result.code).toBe(0);
    for (const command of ["doctor", "enquiries", "release", "backup run", "backup restore", "certificates", "help"])
      expect(result.stdout).toContain(`  cyrus ${command}`);
    expect(run([]).stdout).toBe(result.stdout);
  });

  test.each(["doctor", "enquiries", "release", "backup", "certificates"])(
    "%s as another user than root: refused in one line, nothing run",
    (name) => {
      const result = run([name, "people"], { as: NOBODY });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `cyrus: run it as root (sudo cyrus ${name} …): it runs root's scripts and the release's commands as their users\n`,
      );
    },
  );

  test("an unknown command: refused in one line, nothing run", () => {
    const result = run(["setup", "--domain", "www.example.com"]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: 'cyrus: unknown command "setup" (cyrus help lists them)\n' });
  });

  test("settings or a unit another user could change: refused in one line, nothing run", () => {
    fs.chownSync(at("etc/cyrus/enquiry.env"), CYRUS.uid, CYRUS.gid);
    expect(run(["enquiries", "people"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `cyrus: refused: /etc/cyrus/enquiry.env may be changed by a user other than root (owner ${CYRUS.uid}, mode 600): ` +
        "chown root:root /etc/cyrus/enquiry.env; chmod go-w /etc/cyrus/enquiry.env\n",
    });
    fs.chownSync(at("etc/cyrus/enquiry.env"), 0, 0);
    fs.chmodSync(at("etc/systemd/system/cyrus-release.service"), 0o664);
    const unit = run(["release", "--list"]);
    expect(unit.code).toBe(2);
    expect(unit.stdout).toBe("");
    expect(unit.stderr).toBe(
      "cyrus: refused: /etc/systemd/system/cyrus-release.service may be changed by a user other than root (owner 0, mode 664): " +
        "chown root:root /etc/systemd/system/cyrus-release.service; chmod go-w /etc/systemd/system/cyrus-release.service\n",
    );
    // Without a settings file the service runs on its unit's lines (its EnvironmentFile=-…): so does the CLI.
    fs.rmSync(at("etc/cyrus/enquiry.env"));
    const bare = run(["enquiries", "status"]);
    expect(bare.code).toBe(0);
    expect(envOf(bare.stdout).SITE_URL).toBe(unitEnv("cyrus-enquiry.service").SITE_URL);
  });

  test("no release live, or one the user cannot read: said in one line, nothing run", () => {
    fs.rmSync(at("srv/cyrus/current"));
    const none = run(["enquiries", "people"]);
    expect(none).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "cyrus: no release is live (/srv/cyrus/current/src/site-service/bin/enquiries.ts is not there for cyrus): " +
        "the first release makes it (docs/server.md)\n",
    });
    // A link to a folder only root may read: root does not follow it for the release user.
    fs.mkdirSync(at("private"), { mode: 0o700 });
    fs.cpSync(release(), at("private/release"), { recursive: true });
    fs.symlinkSync(at("private/release"), at("srv/cyrus/current"));
    fs.lchownSync(at("srv/cyrus/current"), RELEASE.uid, RELEASE.gid);
    const hidden = run(["release", "--list"]);
    expect(hidden.code).toBe(2);
    expect(hidden.stdout).toBe("");
    expect(hidden.stderr).toMatch(
      /^cyrus: no release is live \(\/srv\/cyrus\/current\/deploy\/release\/cli\.ts is not there for cyrus-release\)/,
    );
  });
});
