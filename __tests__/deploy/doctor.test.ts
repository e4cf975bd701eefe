/**
 * deploy/server/doctor, as root runs it by hand and as cyrus-doctor.timer does (--notify), in a
 * temporary --root that is a server all well: its units active (a stand-in systemctl), a release live
 * whose nginx configuration passes the module check and nginx -t (run as the tests' unprivileged
 * user, as cyrus-web), a certificate of 90 days renewed half an hour ago, the store answering with
 * one visitor's enquiry in it, a backup made 20 minutes ago encrypted with age (whose identity root
 * keeps for the test restore), Node.js 22, the clock synchronised (a stand-in timedatectl). The CLI
 * runs as root through --enquiries (this checkout's, as backup-script.test.ts does).
 *
 * All well: every line ok, exit 0, the newest backup opened in a temporary store. Then each part
 * broken in turn, with a stand-in CLI (the store's lines are the next tests'): a failed unit, a
 * certificate of 3 days (openssl -days 3), a failed renewal and one not run for 5 hours, a full
 * disk (a 2 MiB tmpfs mounted on the backups' folder, filled), a backup of 3 hours with an interval
 * of one, a failed backup run, a Node.js too old, nginx's configuration refused, the last release
 * failed, the clock not synchronised: each a PROBLEM line of its own with what to do, the others
 * still ok, exit 1. With the real CLI: a delivery failed for good is the outbox's PROBLEM, and
 * --notify e-mails the operator once, through an SMTP server on loopback, with doctor's lines and
 * nothing of the visitor's; with that server down, the notice is kept in the store, doctor says it
 * will be retried, and `retry` sends it once the server is back; a store one migration behind is
 * said and left so. As the release user (not root): what it cannot see is skipped, and says why.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openBenchStore, runEnquiriesCli, type EnquiryStore } from "../../src/site-service";
import { parseMail } from "../support/mail";
import { startSmtp, type SmtpSink } from "../support/smtp";
import { projectRoot } from "./support/stack";

const isRoot = process.getuid!() === 0;
const SCRIPT = path.join(projectRoot, "deploy", "server", "doctor");
const ENQUIRIES = `${process.execPath} --import tsx ${path.join(projectRoot, "src/site-service/bin/enquiries.ts")}`;
/** The tests' unprivileged user: cyrus, cyrus-web and cyrus-release alike. */
const NOBODY = 65534;
const BACKUPS = "/mnt/backups";
const RELEASE_ID = "20261201T090000Z-abc1234";
const HOUR = 3600_000;
const VISITOR = { name: "Zebedee Quartermain", email: "zebedee.q@visitor.example", message: "Private words of mine" };
const UNITS = [
  "cyrus-enquiry.service",
  "cyrus-nginx.service",
  "cyrus-release.path",
  "cyrus-release-poll.timer",
  "cyrus-certificates.timer",
  "cyrus-backup.timer",
  "cyrus-doctor.timer",
];

let root = "";
let key = "";
let recipient = "";
let smtp: SmtpSink | undefined;
const at = (p: string) => path.join(root, p);
const dataDir = () => at("var/lib/cyrus/enquiries");
/** The store's migrations, by name, as the code has them (the store's own folder). */
const MIGRATIONS = fs
  .readdirSync(path.join(projectRoot, "src/site-service/enquiries/store/migrations/sqlite"))
  .filter((f) => /^\d{3}-[a-z0-9-]+\.sql$/.test(f))
  .sort();
const CODE = Number(MIGRATIONS.at(-1)!.slice(0, 3));

/** The store of the tests' server, opened (and migrated) as the service opens it. */
async function openTestStore(): Promise<EnquiryStore> {
  return (await openBenchStore({ ENQUIRY_DATA_DIR: dataDir() })).store;
}

/** The SQLite store's file, for a statement of an operator's SQL client. */
function sqlite<T>(fn: (db: import("node:sqlite").DatabaseSync) => T): T {
  const db = new (process.getBuiltinModule("node:sqlite").DatabaseSync)(path.join(dataDir(), "enquiries.sqlite"));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

function must(command: string, args: string[], input?: Buffer): Buffer {
  const result = spawnSync(command, args, { input, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr?.toString()}`);
  return result.stdout;
}

function write(p: string, text: string | Buffer, mode = 0o644): void {
  fs.mkdirSync(path.dirname(at(p)), { recursive: true, mode: 0o755 });
  fs.writeFileSync(at(p), text, { mode });
  fs.chmodSync(at(p), mode);
}

/** A state file of root's scripts: KEY=VALUE lines under a comment. */
function state(p: string, values: Record<string, string>): void {
  write(
    p,
    `# the tests'\n${Object.entries(values)
      .map(([k, v]) => `${k}=${v}\n`)
      .join("")}`,
  );
}

function certificate(days: number): void {
  fs.mkdirSync(at("etc/cyrus/tls"), { recursive: true, mode: 0o750 });
  must("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-subj",
    "/CN=www.example.com",
    "-days",
    String(days),
    "-keyout",
    at("etc/cyrus/tls/privkey.pem"),
    "-out",
    at("etc/cyrus/tls/fullchain.pem"),
  ]);
}

function renewal(values: Record<string, string> = {}): void {
  state("var/lib/cyrus-certificates/last-renewal", {
    time: iso(Date.now() - 30 * 60_000),
    result: "not-due",
    message: "the certificate is not due",
    domain: "www.example.com",
    renew_after: iso(Date.now() + 60 * 24 * HOUR),
    placeholder: "no",
    failures: "0",
    ...values,
  });
}

function lastBackup(values: Record<string, string> = {}): void {
  state("var/lib/cyrus-backup/last-backup", {
    time: iso(Date.now() - 20 * 60_000),
    result: "made",
    message: "made",
    last_made: iso(Date.now() - 20 * 60_000),
    failures: "0",
    erasure_key: "set",
    ...values,
  });
}

function releaseStatus(extra: Record<string, unknown> = {}): void {
  const status = {
    state: "live",
    live: {
      id: RELEASE_ID,
      commit: "abc1234def5678",
      title: "Spring timetable",
      time: iso(Date.now()),
      since: iso(Date.now() - 2 * HOUR),
    },
    updatedAt: iso(Date.now() - 2 * HOUR),
    ...extra,
  };
  write("srv/cyrus/shared/release-status.json", JSON.stringify(status, null, 2));
}

/** nginx's configuration as a release writes it, in the directives the module check allows. */
function nginxConf(): string {
  const state = at("var/lib/cyrus-web");
  const cache = at("var/cache/cyrus-web");
  return [
    "daemon off;",
    `pid ${state}/nginx.pid;`,
    `error_log ${at("var/log/cyrus-web")}/error.log;`,
    "events { worker_connections 16; }",
    "http {",
    "  access_log off;",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${cache}/${t};`),
    "  server { listen 127.0.0.1:65080; server_name www.example.com; }",
    "}",
    "",
  ].join("\n");
}

/** The server, all well (the describe's beforeEach). */
async function world(): Promise<void> {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-doctor-"));
  fs.chmodSync(root, 0o755);
  // A disk of its own, so that "free disk" is the same on any machine.
  must("mount", ["-t", "tmpfs", "-o", "size=4g,mode=755", "tmpfs", root]);
  write(
    "etc/passwd",
    [
      "root:x:0:0:root:/root:/bin/bash",
      ...["cyrus", "cyrus-web", "cyrus-release"].map(
        (u) => `${u}:x:${NOBODY}:${NOBODY}::/nonexistent:/usr/sbin/nologin`,
      ),
    ].join("\n") + "\n",
  );
  write(
    "etc/systemd/system/cyrus-enquiry.service",
    fs.readFileSync(path.join(projectRoot, "deploy/systemd/cyrus-enquiry.service")),
  );
  // The units' Node: this one, seen at /usr/bin/node by any user (its own folder is root's).
  write("usr/bin/node", "");
  must("mount", ["--bind", process.execPath, at("usr/bin/node")]);
  key = crypto.randomBytes(32).toString("base64");
  write(
    "etc/cyrus/enquiry.env",
    `# the tests'\nENQUIRY_DATA_DIR=${dataDir()}\nENQUIRY_ERASURE_KEY=${key}\nSMTP_URL=smtp://127.0.0.1:${smtp!.port}\nENQUIRY_TO=desk@cyrus.example\nENQUIRY_ALERT_TO=ops@cyrus.example\nENQUIRY_FROM='Cyrus website <web@cyrus.example>'\n`,
    0o600,
  );
  // The certificate, renewed by ACME.
  write("etc/cyrus/certificates.env", "DOMAIN=www.example.com\nEMAIL=ops@cyrus.example\n", 0o600);
  certificate(90);
  renewal();
  // The live release, its nginx's folders (cyrus-web's), and its status.
  write(`srv/cyrus/releases/${RELEASE_ID}/nginx/cyrus-nginx.conf`, nginxConf());
  fs.symlinkSync(`releases/${RELEASE_ID}`, at("srv/cyrus/current"));
  releaseStatus();
  for (const dir of ["var/lib/cyrus-web", "var/log/cyrus-web", "var/cache/cyrus-web"]) {
    fs.mkdirSync(path.dirname(at(dir)), { recursive: true, mode: 0o755 });
    fs.mkdirSync(at(dir), { mode: 0o750 });
    fs.chownSync(at(dir), NOBODY, NOBODY);
  }
  // The store, with one visitor's enquiry (delivered: nothing waits).
  fs.mkdirSync(dataDir(), { recursive: true, mode: 0o700 });
  const store = await openTestStore();
  const receivedAt = new Date(Date.now() - 3 * HOUR).toISOString();
  await store.add({ id: "enq-1", receivedAt, ...VISITOR, phone: "+44 20 7946 0001", delivery: "pending" } as never, {
    key: "enq-1",
    since: receivedAt,
    ignoreFailed: false,
  });
  await store.close();
  // A backup of it, encrypted to root's age key, whose identity root keeps for the test restore.
  const identity = at("etc/cyrus/backup-identity");
  must("age-keygen", ["-o", identity]);
  fs.chmodSync(identity, 0o600);
  recipient = /public key: (age1\S+)/.exec(fs.readFileSync(identity, "utf8"))![1]!;
  write("etc/cyrus/backup.env", `BACKUP_DIR=${BACKUPS}\nBACKUP_INTERVAL=1h\nBACKUP_RECIPIENT=${recipient}\n`, 0o600);
  fs.mkdirSync(at(BACKUPS), { recursive: true, mode: 0o700 });
  const plain = path.join(root, "plain.sqlite");
  const made = await runEnquiriesCli(
    ["backup", "--out", plain],
    { ENQUIRY_DATA_DIR: dataDir(), ENQUIRY_ERASURE_KEY: key },
    { out: () => undefined, err: () => undefined },
  );
  expect(made).toBe(0);
  const name = `enquiries-${iso(Date.now() - 20 * 60_000).replace(/[-:]/g, "")}.sqlite.age`;
  must("age", ["--encrypt", "--recipient", recipient, "--output", at(`${BACKUPS}/${name}`), plain]);
  fs.chmodSync(at(`${BACKUPS}/${name}`), 0o600);
  fs.rmSync(plain);
  lastBackup({ file: name });
  // systemd and timedated, as stand-ins.
  write("test/states", UNITS.map((u) => `${u}=active\n`).join(""));
  write(
    "test/systemctl",
    `#!/bin/sh\n# is-active UNIT\nstate=$(sed -n "s/^$2=//p" ${at("test/states")})\necho "\${state:-inactive}"\n[ "$state" = active ]\n`,
    0o755,
  );
  write("test/synchronised", "yes\n");
  write("test/timedatectl", `#!/bin/sh\ncat ${at("test/synchronised")}\n`, 0o755);
  // The CLI's store lines, as the real one prints them all well (it is the next tests').
  write(
    "test/enquiries",
    [
      "#!/bin/sh",
      "cat >/dev/null",
      `ps -o sid= -p $$ >${at("test/cli-session")}`,
      `echo "store: ok: ${dataDir()}/enquiries.sqlite answers (SQLite)"`,
      'echo "migrations: ok: schema version 10, the code\'s"',
      'echo "outbox: ok: nothing waiting"',
      '[ "$2" != --backup ] || echo "backup: ok: opens in a temporary store: made at 2026-12-01T09:00:00.000Z, schema version 10, 1 enquiry, 0 people of the inbox"',
      "",
    ].join("\n"),
    0o755,
  );
}

function unmount(): void {
  if (!root) return;
  // A child the last run left (a CLI still closing its files) keeps the disk busy for a moment on a
  // loaded machine: try again, then detach it lazily, so the folder can go (EBUSY failed a run once).
  for (let attempt = 0; attempt < 20 && spawnSync("umount", ["-R", root]).status !== 0; attempt += 1) {
    if (!fs.readFileSync("/proc/self/mountinfo", "utf8").includes(` ${root} `)) break;
    spawnSync("sleep", ["0.1"]);
  }
  if (fs.readFileSync("/proc/self/mountinfo", "utf8").includes(` ${root} `)) spawnSync("umount", ["-R", "-l", root]);
  fs.rmSync(root, { recursive: true, force: true });
  root = "";
}

interface Run {
  code: number | null;
  lines: string[];
  stderr: string;
}

function doctor(options: { real?: boolean; args?: string[]; as?: number; script?: string } = {}): Promise<Run> {
  const args = [
    "--root",
    root,
    "--systemctl",
    at("test/systemctl"),
    "--timedatectl",
    at("test/timedatectl"),
    "--enquiries",
    options.real ? ENQUIRIES : at("test/enquiries"),
    ...(options.args ?? []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(options.script ?? SCRIPT, args, {
      cwd: projectRoot,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
      ...(options.as !== undefined && { uid: options.as, gid: options.as }),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, lines: stdout.split("\n").filter(Boolean), stderr }));
  });
}

const problems = (run: Run) => run.lines.filter((l) => l.startsWith("PROBLEM: "));

/** Exit 1 and exactly one PROBLEM, that one; every other line ok (but those skipped as said). */
function onlyProblem(run: Run, expected: RegExp, skipped: string[] = []): void {
  expect({ code: run.code, problems: problems(run), run }).toEqual({
    code: 1,
    problems: [expect.stringMatching(expected)],
    run: expect.anything(),
  });
  expect(run.lines.filter((l) => !l.startsWith("PROBLEM: ") && !l.startsWith("ok:      "))).toEqual(skipped);
}

(isRoot ? describe : describe.skip)("deploy/server/doctor", () => {
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp?.stop();
  });
  beforeEach(world, 60_000);
  afterEach(unmount);

  test("all well: a line for each part, every one ok; exit 0; the newest backup opened in a temporary store", async () => {
    const before = smtp!.messages.length;
    const run = await doctor({ real: true, args: ["--notify"] });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // Nothing to tell the operator.
    expect(smtp!.messages.length).toBe(before);
    const oks = run.lines.map((l) => l.replace(/^ok: {6}/, ""));
    expect(run.lines.every((l) => l.startsWith("ok:      "))).toBe(true);
    expect(oks).toEqual([
      ...UNITS.map((u) => `${u} active`),
      "nginx: /srv/cyrus/current/nginx/cyrus-nginx.conf passes the module check and nginx -t (as cyrus-web)",
      expect.stringMatching(
        /^TLS certificate: (89|90) days left \(it ends \S+Z; from \/etc\/cyrus\/tls\/fullchain\.pem\)$/,
      ),
      expect.stringMatching(/^certificate renewal: last run \S+Z \(not-due\); renewed after \S+Z$/),
      expect.stringMatching(/^free disk, the releases \(\/srv\/cyrus\): 4\.0 GiB free of 4\.0 GiB \(\d+%\)$/),
      expect.stringMatching(new RegExp(`^free disk, the store's folder \\(${dataDir()}\\): 4\\.0 GiB free`)),
      expect.stringMatching(/^free disk, the backups' folder \(\/mnt\/backups\): 4\.0 GiB free/),
      `the store: ${dataDir()}/enquiries.sqlite answers (SQLite)`,
      `the store's migrations: schema version ${CODE}, the code's`,
      "the outbox: nothing waiting",
      expect.stringMatching(
        new RegExp(`^live: ${RELEASE_ID}: "Spring timetable" \\(commit abc1234def56\\), since \\S+Z$`),
      ),
      expect.stringMatching(/^last release: went live at \S+Z$/),
      expect.stringMatching(/^backups: the last was made 20 min ago \(\S+Z; every 1h\)$/),
      expect.stringMatching(
        /^the newest backup \(enquiries-\d{8}T\d{6}Z\.sqlite\.age\) opens in a temporary store: made at \S+Z, schema version \d+, 1 enquiry, 0 people of the inbox$/,
      ),
      `Node.js: ${process.version} at /usr/bin/node (the units')`,
      "clock: synchronised (NTP)",
    ]);
  }, 90_000);

  test("each part broken in turn: its own PROBLEM line with what to do, the others ok, exit 1", async () => {
    const cases: [string, () => void | Promise<void>, RegExp, () => void, string[]?][] = [
      [
        "a failed unit",
        () =>
          write(
            "test/states",
            UNITS.map((u) => `${u}=${u === "cyrus-enquiry.service" ? "failed" : "active"}\n`).join(""),
          ),
        /^PROBLEM: cyrus-enquiry\.service is failed — journalctl -u cyrus-enquiry\.service -n 50 says why; then systemctl restart cyrus-enquiry\.service$/,
        () => write("test/states", UNITS.map((u) => `${u}=active\n`).join("")),
      ],
      [
        "a certificate of 3 days",
        () => certificate(3),
        /^PROBLEM: TLS certificate: [23] days left \(it ends \S+Z\) — renewals should have replaced it 30 days before its end: see the renewal's line; cyrus certificates renew$/,
        () => certificate(90),
      ],
      [
        "a failed renewal",
        () => renewal({ result: "failed", message: "the CA could not be reached", failures: "4" }),
        /^PROBLEM: certificate renewal: the last run failed \(\S+Z; 4 in a row\): the CA could not be reached — journalctl -u cyrus-certificates/,
        () => renewal(),
      ],
      [
        "no renewal for 5 hours",
        () => renewal({ time: iso(Date.now() - 5 * HOUR) }),
        /^PROBLEM: certificate renewal: its last run was \S+Z, 5 h 0 min ago, and it runs every hour — systemctl enable --now cyrus-certificates\.timer/,
        () => renewal(),
      ],
      [
        "a full disk",
        () => {
          // The backups' folder on a 2 MiB disk of its own, its backups copied there, then filled.
          const saved = path.join(root, "saved");
          fs.cpSync(at(BACKUPS), saved, { recursive: true });
          must("mount", ["-t", "tmpfs", "-o", "size=2m,mode=700", "tmpfs", at(BACKUPS)]);
          fs.cpSync(saved, at(BACKUPS), { recursive: true });
          spawnSync("dd", ["if=/dev/zero", `of=${at(`${BACKUPS}/filler`)}`, "bs=64k", "count=64"]);
        },
        /^PROBLEM: free disk, the backups' folder \(\/mnt\/backups\): 0\.\d MiB free of 2\.0 MiB \(\d%\) — keep fewer backups \(BACKUP_KEEP in \/etc\/cyrus\/backup\.env/,
        () => must("umount", [at(BACKUPS)]),
      ],
      [
        "a backup of 3 hours, made every hour",
        () => lastBackup({ last_made: iso(Date.now() - 3 * HOUR) }),
        /^PROBLEM: backups: the last was made 3 h 0 min ago \(\S+Z\), and they are made every 1h — is cyrus-backup\.timer active\? journalctl -u cyrus-backup/,
        () => lastBackup(),
      ],
      [
        "a failed backup run",
        () => lastBackup({ result: "failed", message: "no backup made (exit status 1): the store could not be read" }),
        /^PROBLEM: backups: the last run failed \(\S+Z; the last backup was made \S+Z\): no backup made \(exit status 1\): the store could not be read — journalctl -u cyrus-backup/,
        () => lastBackup(),
      ],
      [
        "Node.js too old",
        () => {
          must("umount", [at("usr/bin/node")]);
          write("usr/bin/node", "#!/bin/sh\necho v20.11.0\n", 0o755);
        },
        /^PROBLEM: Node\.js: \/usr\/bin\/node is v20\.11\.0; the site needs 22\.13\.0 or later — install Node\.js 22/,
        () => must("mount", ["--bind", process.execPath, at("usr/bin/node")]),
        // The release status is read with the units' Node: its line stands for both.
        [
          "skipped: last release (/srv/cyrus/shared/release-status.json not read: Node.js at /usr/bin/node did not run; its line says why)",
        ],
      ],
      [
        "nginx's configuration refused",
        () =>
          fs.appendFileSync(
            at(`srv/cyrus/releases/${RELEASE_ID}/nginx/cyrus-nginx.conf`),
            "load_module /srv/cyrus/x.so;\n",
          ),
        /^PROBLEM: nginx: the live release's configuration is refused by the module check: refused: load_module \/srv\/cyrus\/x\.so in .*: not a module the site loads .* — cyrus-nginx\.service would not start or reload with it/,
        () => write(`srv/cyrus/releases/${RELEASE_ID}/nginx/cyrus-nginx.conf`, nginxConf()),
      ],
      [
        "the last release failed",
        () =>
          releaseStatus({
            lastFailure: {
              commit: "fedcba9876543210",
              title: "New page",
              time: iso(Date.now()),
              at: iso(Date.now() - HOUR),
              step: "build",
              message: "The site did not build.",
              log: "20261201T100000Z-fedcba9",
            },
          }),
        /^PROBLEM: last release: fedcba987654 \(New page\) failed at \S+Z, step build: The site did not build\. — its log is \/srv\/cyrus\/shared\/logs\/20261201T100000Z-fedcba9\.log/,
        () => releaseStatus(),
      ],
      [
        "the clock not synchronised",
        () => write("test/synchronised", "no\n"),
        /^PROBLEM: clock: not synchronised — timedatectl set-ntp true/,
        () => write("test/synchronised", "yes\n"),
      ],
    ];
    for (const [, breakIt, expected, mend, skipped] of cases) {
      await breakIt();
      onlyProblem(await doctor(), expected, skipped);
      mend();
    }
    // Mended, all well again (with the stand-in CLI).
    const again = await doctor();
    expect({ code: again.code, problems: problems(again) }).toEqual({ code: 0, problems: [] });
    // The CLI ran in a session of its own: no controlling terminal of the caller's.
    const session = (pid: number) =>
      must("ps", ["-o", "sid=", "-p", String(pid)])
        .toString()
        .trim();
    expect(fs.readFileSync(at("test/cli-session"), "utf8").trim()).not.toBe(session(process.pid));
  }, 120_000);

  /** A visitor's enquiry received two hours ago whose e-mail failed with `detail` (the mail server's answer). */
  async function failedDelivery(detail: string): Promise<void> {
    const store = await openTestStore();
    const receivedAt = new Date(Date.now() - 2 * HOUR).toISOString();
    await store.add(
      { id: "enq-2", receivedAt, ...VISITOR, phone: "", delivery: "pending" } as never,
      { key: "enq-2", since: receivedAt, ignoreFailed: false },
      [{ destination: "email", messageId: "msg_enq-2" }],
    );
    const [claim] = await store.claimDue("email", receivedAt, new Date(Date.now()).toISOString(), 1);
    await store.recordAttempt(claim!, { at: receivedAt, outcome: "failed", detail });
    await store.close();
  }

  test("a delivery failed for good: the outbox's PROBLEM; --notify e-mails the operator doctor's lines once, nothing of the visitor's", async () => {
    await failedDelivery(`550 <${VISITOR.email}> unknown`);
    const before = smtp!.messages.length;

    const run = await doctor({ real: true, args: ["--notify"] });
    onlyProblem(
      run,
      /^PROBLEM: the outbox: email: 1 failed for good; 1 waiting, the oldest received 2 h 0 min ago — cyrus enquiries status says which; once that channel works again, cyrus enquiries retry sends what waits$/,
    );
    expect(run.stderr).toBe("doctor: 1 problem(s) (above)\n");
    const sent = smtp!.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.rcptTo).toEqual(["ops@cyrus.example"]);
    const mail = parseMail(sent[0]!.raw);
    expect(mail.header("subject")).toBe(`Website server ${os.hostname()}: doctor found 1 problem(s)`);
    const body = mail.text.replace(/\r\n/g, "\n");
    for (const line of run.lines) expect(body).toContain(line);
    for (const value of [...Object.values(VISITOR), "+44 20 7946 0001", "enq-1", "enq-2"]) {
      expect(sent[0]!.raw).not.toContain(value);
    }
  }, 90_000);

  test("--notify with the mail server down: the notice kept in the store, doctor says it will be retried; retry sends it", async () => {
    await failedDelivery("550 unknown");
    // Nothing listens on the port the settings name: the connection is refused.
    const down = await startSmtp();
    await down.stop();
    const settings = at("etc/cyrus/enquiry.env");
    fs.writeFileSync(
      settings,
      fs.readFileSync(settings, "utf8").replace(/^SMTP_URL=.*$/m, `SMTP_URL=smtp://127.0.0.1:${down.port}`),
    );
    const before = smtp!.messages.length;

    const run = await doctor({ real: true, args: ["--notify"] });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^doctor: 1 problem\(s\) \(above\)\ndoctor: the operator is not e-mailed yet: could not e-mail the operator now \(.*ECONNREFUSED.*\): the notice is stored in \S+\/enquiries\.sqlite and will be retried on the outbox's schedule/,
    );
    const subject = `Website server ${os.hostname()}: doctor found 1 problem(s)`;
    expect(sqlite((db) => db.prepare("SELECT subject, state, attempts FROM operator_notices").all())).toEqual([
      { subject, state: "due", attempts: 1 },
    ]);

    // The mail server back: retry (as the service's sender would) sends it, doctor's lines in it.
    const env = {
      ENQUIRY_DATA_DIR: dataDir(),
      SMTP_URL: `smtp://127.0.0.1:${smtp!.port}`,
      ENQUIRY_ALERT_TO: "ops@cyrus.example",
    };
    const quiet = { out: () => undefined, err: () => undefined };
    await runEnquiriesCli(["retry", "--channel", "email"], { ...env, ENQUIRY_TO: "desk@cyrus.example" }, quiet);
    const notices = smtp!.messages.slice(before).filter((m) => m.rcptTo.includes("ops@cyrus.example"));
    expect(notices).toHaveLength(1);
    const mail = parseMail(notices[0]!.raw);
    expect(mail.header("subject")).toBe(subject);
    expect(mail.header("x-operator-notice")).toBe("1");
    for (const line of run.lines) expect(mail.text).toContain(line);
    for (const value of Object.values(VISITOR)) expect(notices[0]!.raw).not.toContain(value);
  }, 90_000);

  test("a store one migration behind its code: said, what to do, and left as it was", async () => {
    const newest = MIGRATIONS.at(-1)!.replace(/\.sql$/, "");
    // As a store the release before left: the newest migration's row is not there.
    expect(sqlite((db) => db.prepare("DELETE FROM schema_migrations WHERE version = ?").run(CODE).changes)).toBe(1);
    // Without the test restore this time (no identity: the backup is said not to be opened).
    fs.rmSync(at("etc/cyrus/backup-identity"));

    const run = await doctor({ real: true });
    expect(run.code).toBe(1);
    expect(problems(run)).toEqual([
      `PROBLEM: the store's migrations: schema version ${CODE - 1}, the code's ${CODE}: 1 migration not applied (${newest}) — the service applies them as it starts: systemctl restart cyrus-enquiry.service, then journalctl -u cyrus-enquiry`,
    ]);
    expect(run.lines).toContain(
      "skipped: the outbox (not read while the store's schema is not the code's: reading it would migrate it)",
    );
    // Still one behind: doctor migrated nothing.
    expect(sqlite((db) => db.prepare("SELECT max(version) AS v FROM schema_migrations").get())).toEqual({
      v: CODE - 1,
    });
    expect(run.lines).toContainEqual(
      expect.stringMatching(
        /^ok: {6}the newest backup \(\S+\.sqlite\.age\) is encrypted and not opened here: put a copy of its identity at \/etc\/cyrus\/backup-identity/,
      ),
    );
  }, 90_000);

  test("a PostgreSQL backup: a whole pg_dump is ok, a cut one a PROBLEM", async () => {
    for (const file of fs.readdirSync(at(BACKUPS))) fs.rmSync(at(`${BACKUPS}/${file}`));
    // As pg_dump writes it (its recent versions' \restrict and \unrestrict lines included).
    const dump = [
      "--",
      "-- PostgreSQL database dump",
      "--",
      "",
      "\\restrict abc",
      "",
      ...Array.from({ length: 50 }, (_, i) => `INSERT INTO enquiries VALUES (${i});`),
      "",
      "--",
      "-- PostgreSQL database dump complete",
      "--",
      "",
      "\\unrestrict abc",
      "",
    ].join("\n");
    const name = `enquiries-${iso(Date.now() - 20 * 60_000).replace(/[-:]/g, "")}.sql.age`;
    const backup = (text: string) =>
      fs.writeFileSync(
        at(`${BACKUPS}/${name}`),
        must("age", ["--encrypt", "--recipient", recipient], Buffer.from(text)),
      );

    backup(dump);
    const whole = await doctor();
    expect(whole.lines).toContain(
      `ok:      the newest backup (${name}) is a whole pg_dump (not loaded: a test load needs a database of its own)`,
    );
    expect(whole.code).toBe(0);

    backup(dump.slice(0, dump.length / 2));
    onlyProblem(
      await doctor(),
      new RegExp(
        `^PROBLEM: the newest backup \\(${name.replace(/\./g, "\\.")}\\) is not a whole pg_dump — restore the one before it`,
      ),
    );
  }, 60_000);

  test("as the release user: what only root sees is skipped, saying why; the rest looked at", async () => {
    // As on a server: the TLS folder is root's and cyrus-web's.
    fs.chmodSync(at("etc/cyrus/tls"), 0o750);
    renewal({ not_after: iso(Date.now() + 89.5 * 24 * HOUR) });
    const run = await doctor({ as: NOBODY });
    expect(run.lines.filter((l) => !l.startsWith("ok:      "))).toEqual([
      "skipped: free disk, the store's folder (ENQUIRY_DATA_DIR is in root's /etc/cyrus/enquiry.env)",
      "skipped: free disk, the backups' folder (BACKUP_DIR is in root's /etc/cyrus/backup.env)",
      "skipped: the store (its settings are root's /etc/cyrus/enquiry.env, the store is cyrus's)",
      "skipped: the store's migrations (the same)",
      "skipped: the outbox (the same)",
      "skipped: the newest backup opens (the backups are root's)",
    ]);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual(
      expect.arrayContaining([
        "ok:      nginx: /srv/cyrus/current/nginx/cyrus-nginx.conf passes the module check (nginx -t is root's to run: the key is root's and cyrus-web's)",
        expect.stringMatching(
          /^ok: {6}TLS certificate: (89|90) days left \(it ends \S+Z; from \/var\/lib\/cyrus-certificates\/last-renewal/,
        ),
        expect.stringMatching(
          /^ok: {6}backups: the last was made 20 min ago \(\S+Z; every 1h, if BACKUP_INTERVAL is the default\)$/,
        ),
        expect.stringMatching(/^ok: {6}live: 20261201T090000Z-abc1234: "Spring timetable"/),
      ]),
    );
  }, 60_000);
});
