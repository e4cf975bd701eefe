/**
 * deploy/server/setup, the one command root runs on a server (docs/server.md), run as root into a
 * fresh temporary --root (systemd is not running here: the units are enabled offline and checked with
 * systemd-analyze verify). It sets up users, folders, modes, units (with the Node it found; the
 * backups' and the doctor's timers enabled), the polkit rule, root's scripts (the module check,
 * backup, doctor) and the owner's command (/usr/local/sbin/cyrus), the settings files (the copy's
 * examples, the service's with an erasure key of its own, made once and never again) and its copies
 * of the TLS files, or with --domain and --email the certificates script's settings and placeholder
 * (the timer enabled then only); run again it changes nothing; it refuses a copy that a user other
 * than root could change, an old or foreign Node, a --root it cannot use, and writes nothing then; it
 * never changes the folder a TLS file is given from; a link the release user plants at any part of a
 * path below the release root is a PROBLEM, never followed, and leaves everything outside the release
 * root as it was; the release user runs the first release from a copy laid out as the page says,
 * whose .git it cannot read.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULTS, readSettings } from "../../deploy/release/settings";
import { projectRoot } from "./support/stack";
import { verifyRoot } from "./support/verify-root";

const isRoot = process.getuid!() === 0;
const UNITS = [
  "cyrus-enquiry.service",
  "cyrus-nginx.service",
  "cyrus-release.service",
  "cyrus-release-poll.service",
  "cyrus-release-poll.timer",
  "cyrus-release.path",
  "cyrus-certificates.service",
  "cyrus-certificates.timer",
  "cyrus-backup.service",
  "cyrus-backup.timer",
  "cyrus-doctor.service",
  "cyrus-doctor.timer",
];
const KEY = "/etc/cyrus/tls/privkey.pem";
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder of root's, 0755 (mkdtemp makes 0700), below a root-owned folder no one else may write. */
function rootsFolder(parent = "/var/lib"): string {
  const dir = fs.mkdtempSync(path.join(parent, "cyrus-setup-test-"));
  fs.chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

/** The project's copy the operator keeps (what the setup takes from it, and first-release), root's throughout. */
function copyOfProject(parent = rootsFolder()): string {
  const copy = path.join(parent, "cyrus-setup");
  const take = (dir: string, names = fs.readdirSync(path.join(projectRoot, dir))) => {
    fs.mkdirSync(path.join(copy, dir), { recursive: true, mode: 0o755 });
    for (const name of names) {
      const from = path.join(projectRoot, dir, name);
      fs.copyFileSync(from, path.join(copy, dir, name));
      fs.chmodSync(path.join(copy, dir, name), fs.statSync(from).mode & 0o755);
    }
  };
  for (const dir of ["deploy/server", "deploy/systemd", "deploy/polkit", "deploy/examples"]) take(dir);
  take("deploy/release", ["first-release"]);
  spawnSync("chmod", ["-R", "go-w", copy]);
  return copy;
}

/** package.json's engines.node (">=22.13.0"): the oldest Node the setup accepts. */
const NODE_NEEDED = /^>=(\d+\.\d+\.\d+)$/.exec(
  (JSON.parse(fs.readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { engines: { node: string } }).engines
    .node,
)![1]!;

/** A stand-in for Node in the new server's `dir` (it prints `version`), and npm beside it. */
function fakeNode(root: string, dir: string, version: string, mode = 0o755): string {
  fs.mkdirSync(path.join(root, dir), { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(root, dir, "node"), `#!/bin/sh\necho v${version}\n`, { mode });
  fs.chmodSync(path.join(root, dir, "node"), mode);
  fs.writeFileSync(path.join(root, dir, "npm"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return path.join(dir, "node");
}

/**
 * A new server's root: its users' files, Node where Debian's package puts it, and a TLS key copied
 * there as root would (0644).
 */
function freshRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-setup-root-"));
  dirs.push(root);
  // "/" of the new server: everyone may go through it.
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(path.join(root, "etc"));
  for (const file of ["passwd", "group", "shadow", "gshadow"])
    fs.copyFileSync(`/etc/${file}`, path.join(root, "etc", file));
  fakeNode(root, "/usr/bin", NODE_NEEDED);
  // bubblewrap, which releases need (the set-up only looks for it).
  fs.writeFileSync(path.join(root, "usr/bin/bwrap"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  fs.mkdirSync(path.join(root, path.dirname(KEY)), { recursive: true, mode: 0o755 });
  fs.writeFileSync(path.join(root, KEY), "-----BEGIN PRIVATE KEY-----\nnot a real one\n", { mode: 0o644 });
  return root;
}

function setup(copy: string, root: string, extra: string[] = [], as?: number) {
  const result = spawnSync(path.join(copy, "deploy", "server", "setup"), ["--root", root, "--no-systemctl", ...extra], {
    encoding: "utf8",
    ...(as === undefined ? {} : { uid: as, gid: as }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every path under `root`: type, mode, owner, and its content's hash or its link's target. */
function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      const st = fs.lstatSync(file);
      const what = st.isSymbolicLink()
        ? `-> ${fs.readlinkSync(file)}`
        : st.isFile()
          ? crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex")
          : "";
      out.push(`${path.relative(root, file)} ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid} ${what}`);
      if (st.isDirectory()) walk(file);
    }
  };
  walk(root);
  return out;
}

/** The ENQUIRY_ERASURE_KEY a settings file sets. */
const erasureKeyOf = (text: string) => /^ENQUIRY_ERASURE_KEY=(.*)$/m.exec(text)?.[1];

const entry = (root: string, file: string, name: string) =>
  fs
    .readFileSync(path.join(root, "etc", file), "utf8")
    .split("\n")
    .find((line) => line.startsWith(`${name}:`))
    ?.split(":");
const ids = (root: string, name: string) => {
  const user = entry(root, "passwd", name)!;
  return { uid: Number(user[2]), gid: Number(user[3]) };
};
const stat = (root: string, file: string) => {
  const st = fs.lstatSync(path.join(root, file));
  return { mode: (st.mode & 0o7777).toString(8), uid: st.uid, gid: st.gid };
};
/** A command as a user of the new root (setpriv takes its ids; the system does not know its name). */
const as = (user: { uid: number; gid: number }, command: string[]) =>
  spawnSync("setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", ...command], {
    encoding: "utf8",
  });

(isRoot ? describe : describe.skip)("deploy/server/setup, as root into a fresh --root", () => {
  let copy: string;
  let root: string;
  let first: ReturnType<typeof setup>;
  beforeAll(() => {
    copy = copyOfProject();
    root = freshRoot();
    // An older server's sudo rule: the polkit rule replaces it.
    fs.mkdirSync(path.join(root, "etc", "sudoers.d"), { recursive: true });
    fs.writeFileSync(path.join(root, "etc", "sudoers.d", "cyrus-release"), "cyrus-release ALL=(root) NOPASSWD: ALL\n", {
      mode: 0o440,
    });
    first = setup(copy, root, ["--tls-key", KEY]);
  });

  test("sets up users, folders, modes, units, the polkit rule, the module check and the key, saying what it changed", () => {
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^setup: \d+ change\(s\)$/m);
    expect(first.stdout.split("\n")[0]).toBe(
      `setup: running from ${copy} (not a git checkout: no release tag to name)`,
    );
    // No systemd was asked: Debian's nginx is masked, and not said to be stopped.
    expect(first.stdout).toContain(
      "changed: nginx.service (Debian's, root's) masked (not stopped: systemd not asked)\n",
    );
    expect(first.stdout).not.toContain("stopped and masked");
    for (const name of ["cyrus-release", "cyrus", "cyrus-web", "cyrus-acme"]) {
      const user = entry(root, "passwd", name)!;
      expect(Number(user[2])).toBeGreaterThan(0);
      expect(user[6]).toBe("/usr/sbin/nologin");
      expect(first.stdout).toContain(`changed: user ${name} created`);
    }
    expect(entry(root, "group", "cyrus-release")![3]!.split(",")).toContain("cyrus");
    const release = ids(root, "cyrus-release");
    const web = ids(root, "cyrus-web");
    const owned = (uid: number, gid: number, mode: string) => ({ mode, uid, gid });
    expect(stat(root, "srv/cyrus")).toEqual(owned(release.uid, release.gid, "755"));
    expect(stat(root, "srv/cyrus/shared")).toEqual(owned(release.uid, release.gid, "755"));
    expect(stat(root, "srv/cyrus/shared/home")).toEqual(owned(release.uid, release.gid, "755"));
    expect(stat(root, "srv/cyrus/shared/release-requests")).toEqual(owned(release.uid, release.gid, "2770"));
    expect(stat(root, "srv/cyrus/shared/release.env")).toEqual(owned(release.uid, release.gid, "600"));
    expect(stat(root, "etc/cyrus")).toEqual(owned(0, 0, "755"));
    expect(stat(root, "etc/cyrus/enquiry.env")).toEqual(owned(0, 0, "600"));
    expect(stat(root, "etc/cyrus/backup.env")).toEqual(owned(0, 0, "600"));
    // The settings files: the copy's examples, to fill in; the service's with its erasure key made.
    for (const [file, example] of [
      ["srv/cyrus/shared/release.env", "release.env"],
      ["etc/cyrus/backup.env", "backup.env"],
    ])
      expect(fs.readFileSync(path.join(root, file!), "utf8")).toBe(
        fs.readFileSync(path.join(projectRoot, "deploy/examples", example!), "utf8"),
      );
    const enquiryEnv = fs.readFileSync(path.join(root, "etc/cyrus/enquiry.env"), "utf8");
    const erasureKey = erasureKeyOf(enquiryEnv);
    // As `openssl rand -base64 32` makes one: 44 characters, which the service takes (32 or more, no spaces).
    expect(erasureKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(erasureKey!, "base64")).toHaveLength(32);
    expect(enquiryEnv).toBe(
      fs
        .readFileSync(path.join(projectRoot, "deploy/examples/enquiry.env"), "utf8")
        .replace(/^# ENQUIRY_ERASURE_KEY=$/m, `ENQUIRY_ERASURE_KEY=${erasureKey}`),
    );
    expect(first.stdout).toContain(
      "changed: ENQUIRY_ERASURE_KEY set in /etc/cyrus/enquiry.env to a new random key: keep a copy of it with the " +
        "backups' key, off this server (grep ENQUIRY_ERASURE_KEY /etc/cyrus/enquiry.env): a restore needs it to " +
        "erase again what was erased after its backup\n",
    );
    expect(first.stdout).not.toContain(erasureKey);
    expect(first.stdout).toContain(
      "changed: /srv/cyrus/shared/release.env created by cyrus-release from deploy/examples/release.env (mode 600): " +
        "fill in RELEASE_REPO and SITE_URL there, as cyrus-release\n",
    );
    expect(first.stdout).toContain(
      "changed: /etc/cyrus/enquiry.env created from deploy/examples/enquiry.env (mode 600): fill in its settings\n",
    );
    expect(first.stdout).toContain(`ok:      Node.js v${NODE_NEEDED} at /usr/bin/node (the units run it)\n`);
    for (const unit of UNITS) {
      expect(stat(root, `etc/systemd/system/${unit}`)).toEqual(owned(0, 0, "644"));
      expect(fs.readFileSync(path.join(root, "etc/systemd/system", unit), "utf8")).toBe(
        fs.readFileSync(path.join(projectRoot, "deploy/systemd", unit), "utf8"),
      );
    }
    expect(stat(root, "usr/local/lib/cyrus/nginx-module-check")).toEqual(owned(0, 0, "755"));
    expect(stat(root, "usr/local/lib/cyrus/certificates")).toEqual(owned(0, 0, "755"));
    // Root's scripts for the backups and the doctor, and the owner's command: the copy's, root's.
    for (const [installed, source] of [
      ["usr/local/lib/cyrus/backup", "backup"],
      ["usr/local/lib/cyrus/doctor", "doctor"],
      ["usr/local/sbin/cyrus", "cyrus"],
    ]) {
      expect(stat(root, installed!)).toEqual(owned(0, 0, "755"));
      expect(fs.readFileSync(path.join(root, installed!), "utf8")).toBe(
        fs.readFileSync(path.join(projectRoot, "deploy/server", source!), "utf8"),
      );
      expect(first.stdout).toContain(`changed: /${installed} installed from deploy/server/${source}\n`);
    }
    // What backup, doctor and cyrus source to run the release's code as its user: root's, not run itself.
    expect(stat(root, "usr/local/lib/cyrus/lib-run-as.sh")).toEqual(owned(0, 0, "644"));
    expect(fs.readFileSync(path.join(root, "usr/local/lib/cyrus/lib-run-as.sh"), "utf8")).toBe(
      fs.readFileSync(path.join(projectRoot, "deploy/server/lib-run-as.sh"), "utf8"),
    );
    expect(first.stdout).toContain(
      "changed: /usr/local/lib/cyrus/lib-run-as.sh installed from deploy/server/lib-run-as.sh\n",
    );
    expect(first.stdout).toContain(
      "changed: /etc/cyrus/backup.env created from deploy/examples/backup.env (mode 600): fill in its settings\n",
    );
    // No --domain: no certificate by ACME, and its timer not enabled.
    expect(fs.existsSync(path.join(root, "etc/cyrus/certificates.env"))).toBe(false);
    expect(fs.existsSync(path.join(root, "etc/systemd/system/timers.target.wants/cyrus-certificates.timer"))).toBe(
      false,
    );
    expect(first.stdout).toContain(
      "ok:      cyrus-certificates.timer not enabled: no certificate by ACME (--domain and --email)\n",
    );
    expect(stat(root, "etc/polkit-1/rules.d/50-cyrus-release.rules")).toEqual(owned(0, 0, "644"));
    expect(fs.existsSync(path.join(root, "etc/sudoers.d/cyrus-release"))).toBe(false);
    expect(first.stdout).toContain("/etc/sudoers.d/cyrus-release removed");
    // Debian's nginx masked; the site's units enabled (the first release starts nginx and the service).
    expect(fs.readlinkSync(path.join(root, "etc/systemd/system/nginx.service"))).toBe("/dev/null");
    for (const [wants, unit] of [
      ["multi-user.target.wants", "cyrus-enquiry.service"],
      ["multi-user.target.wants", "cyrus-nginx.service"],
      ["paths.target.wants", "cyrus-release.path"],
      ["timers.target.wants", "cyrus-release-poll.timer"],
      ["timers.target.wants", "cyrus-backup.timer"],
      ["timers.target.wants", "cyrus-doctor.timer"],
    ])
      expect(fs.readlinkSync(path.join(root, "etc/systemd/system", wants!, unit!))).toBe(`/etc/systemd/system/${unit}`);
    // The TLS key: nginx's user reads it, the release user (and the service's) cannot.
    expect(stat(root, path.dirname(KEY).slice(1))).toEqual(owned(0, web.gid, "750"));
    expect(stat(root, KEY.slice(1))).toEqual(owned(0, web.gid, "640"));
    expect(as(web, ["cat", path.join(root, KEY)]).status).toBe(0);
    for (const other of [release, ids(root, "cyrus")]) {
      const read = as(other, ["cat", path.join(root, KEY)]);
      expect(read.status).not.toBe(0);
      expect(read.stderr).toContain("Permission denied");
    }
  });

  test("run again, it changes nothing, and keeps what the settings files hold byte for byte", () => {
    const made = fs.readFileSync(path.join(root, "etc/cyrus/enquiry.env"), "utf8");
    const unchanged = setup(copy, root, ["--tls-key", KEY]);
    expect(unchanged.stdout).toMatch(/^setup: nothing to change$/m);
    expect(unchanged.stdout).not.toContain("ENQUIRY_ERASURE_KEY");
    // The key made is kept, never made again.
    expect(fs.readFileSync(path.join(root, "etc/cyrus/enquiry.env"), "utf8")).toBe(made);
    const release = "RELEASE_REPO=/srv/git/site.git\nSITE_URL=https://www.cyrus.example\n";
    // The owner's: without the key made (taken out, or an older server's), it is not put back.
    const enquiry = "SMTP_URL=smtp://mail.example.com\r\n# ENQUIRY_ERASURE_KEY=\n# no newline at the end";
    const backups = "BACKUP_DIR='/mnt/backup/cyrus'\n";
    fs.writeFileSync(path.join(root, "srv/cyrus/shared/release.env"), release);
    fs.writeFileSync(path.join(root, "etc/cyrus/enquiry.env"), enquiry);
    fs.writeFileSync(path.join(root, "etc/cyrus/backup.env"), backups);
    const before = listing(root);
    const again = setup(copy, root, ["--tls-key", KEY]);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("changed:");
    expect(again.stdout).toMatch(/^setup: nothing to change$/m);
    expect(again.stdout).toContain("ok:      /srv/cyrus/shared/release.env (mode 600, content kept)\n");
    expect(again.stdout).toContain("ok:      /etc/cyrus/enquiry.env (mode 600, content kept)\n");
    expect(again.stdout).toContain("ok:      /etc/cyrus/backup.env (mode 600, content kept)\n");
    for (const done of [
      "/usr/local/lib/cyrus/lib-run-as.sh",
      "/usr/local/lib/cyrus/backup",
      "/usr/local/lib/cyrus/doctor",
      "/usr/local/sbin/cyrus",
    ])
      expect(again.stdout).toContain(`ok:      ${done}\n`);
    for (const timer of ["cyrus-backup.timer", "cyrus-doctor.timer"])
      expect(again.stdout).toContain(`ok:      ${timer} enabled\n`);
    expect(listing(root)).toEqual(before);
    expect(fs.readFileSync(path.join(root, "srv/cyrus/shared/release.env"), "utf8")).toBe(release);
    expect(fs.readFileSync(path.join(root, "etc/cyrus/enquiry.env"), "utf8")).toBe(enquiry);
    expect(fs.readFileSync(path.join(root, "etc/cyrus/backup.env"), "utf8")).toBe(backups);
  });

  test("an empty settings file (an earlier setup's) is kept, and the example named", () => {
    const release = ids(root, "cyrus-release");
    const files = [path.join(root, "srv/cyrus/shared/release.env"), path.join(root, "etc/cyrus/enquiry.env")];
    const kept = files.map((file) => fs.readFileSync(file));
    try {
      expect(as(release, ["truncate", "-s", "0", files[0]!]).status).toBe(0);
      fs.truncateSync(files[1]!);
      const again = setup(copy, root, ["--tls-key", KEY]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(
        "ok:      /srv/cyrus/shared/release.env (mode 600, content kept; it is empty: deploy/examples/release.env lists the settings)\n",
      );
      expect(again.stdout).toContain(
        "ok:      /etc/cyrus/enquiry.env (mode 600, content kept; it is empty: deploy/examples/enquiry.env lists the settings)\n",
      );
      for (const file of files) expect(fs.statSync(file).size).toBe(0);
    } finally {
      files.forEach((file, i) => fs.writeFileSync(file, kept[i]!));
    }
  });

  (spawnSync("systemd-analyze", ["--version"]).status === 0 ? test : test.skip)(
    "systemd-analyze verify finds nothing to say about the units it wrote",
    () => {
      // A copy of the root with the system's own units beside them (and stand-ins for node and nginx).
      const verify = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-setup-verify-"));
      dirs.push(verify);
      fs.cpSync(path.join(root, "etc"), path.join(verify, "etc"), { recursive: true, verbatimSymlinks: true });
      fs.cpSync(path.join(root, "usr"), path.join(verify, "usr"), { recursive: true, verbatimSymlinks: true });
      verifyRoot([], verify);
      const result = spawnSync("systemd-analyze", [`--root=${verify}`, "verify", ...UNITS], { encoding: "utf8" });
      expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
        status: 0,
        output: "",
      });
    },
  );

  test("a link the release user plants under the release root gives it nothing of root's", () => {
    const release = ids(root, "cyrus-release");
    const shared = path.join(root, "srv/cyrus/shared");
    // As the release user (it owns shared/): its notes folder and its settings swapped for links
    // to root's files, and shared/home's mode changed, so that the setup has something to fix there.
    fs.rmSync(path.join(shared, "release-requests"), { recursive: true });
    fs.rmSync(path.join(shared, "release.env"));
    expect(as(release, ["ln", "-s", path.join(root, "etc/cyrus"), path.join(shared, "release-requests")]).status).toBe(
      0,
    );
    expect(
      as(release, ["ln", "-s", path.join(root, "etc/cyrus/enquiry.env"), path.join(shared, "release.env")]).status,
    ).toBe(0);
    expect(as(release, ["chmod", "700", path.join(shared, "home")]).status).toBe(0);
    const before = { dir: stat(root, "etc/cyrus"), file: stat(root, "etc/cyrus/enquiry.env") };
    const secrets = fs.readFileSync(path.join(root, "etc/cyrus/enquiry.env"), "utf8");
    const result = setup(copy, root, ["--tls-key", KEY]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `PROBLEM: /srv/cyrus/shared/release-requests is a link to ${path.join(root, "etc/cyrus")}: not followed; ` +
        "remove it as cyrus-release (rm -- /srv/cyrus/shared/release-requests) and run the setup again; " +
        "nothing under it was set up",
    );
    expect(result.stderr).toContain(
      `PROBLEM: /srv/cyrus/shared/release.env is a link to ${path.join(root, "etc/cyrus/enquiry.env")}: not followed; ` +
        "remove it as cyrus-release (rm -- /srv/cyrus/shared/release.env) and run the setup again\n",
    );
    expect(result.stdout).toContain("changed: /srv/cyrus/shared/home/ mode 700 -> 755");
    expect({ dir: stat(root, "etc/cyrus"), file: stat(root, "etc/cyrus/enquiry.env") }).toEqual(before);
    expect(fs.readFileSync(path.join(root, "etc/cyrus/enquiry.env"), "utf8")).toBe(secrets);
  });
});

/** Owner, mode and content (or a link's target) of `dir` itself and of everything under it. */
const tree = (dir: string) => {
  const st = fs.lstatSync(dir);
  return [`. ${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`, ...listing(dir)];
};

(isRoot ? describe : describe.skip)(
  "deploy/server/setup follows no link the release user plants under the release root",
  () => {
    let copy: string;
    let root: string;
    let outside: string;
    let release: { uid: number; gid: number };
    const cyrus = (root: string, part: string) => path.join(root, "srv/cyrus", part);
    /** Everything but what lies below the release root: the server's "/" and a folder of root's elsewhere. */
    const notTheReleases = () => ({
      root: tree(root).filter((line) => !line.startsWith("srv/cyrus/")),
      outside: tree(outside),
    });
    /** As the release user: the part moved aside, and a link to `target` in its place. */
    const plant = (part: string, target: string) => {
      expect(as(release, ["mv", "--", cyrus(root, part), `${cyrus(root, part)}.aside`]).status).toBe(0);
      expect(as(release, ["ln", "-s", "--", target, cyrus(root, part)]).status).toBe(0);
    };
    const unplant = (part: string) => {
      expect(as(release, ["rm", "--", cyrus(root, part)]).status).toBe(0);
      expect(as(release, ["mv", "--", `${cyrus(root, part)}.aside`, cyrus(root, part)]).status).toBe(0);
    };
    const linkProblem = (part: string, target: string) =>
      `PROBLEM: /srv/cyrus/${part} is a link to ${target}: not followed; remove it as cyrus-release ` +
      `(rm -- /srv/cyrus/${part}) and run the setup again`;

    beforeAll(() => {
      copy = copyOfProject();
      root = freshRoot();
      expect(setup(copy, root).code).toBe(0);
      release = ids(root, "cyrus-release");
      // The server's /home, root's, with an admin's profile: what `shared -> /` would have handed over.
      fs.mkdirSync(path.join(root, "home/admin"), { recursive: true });
      fs.chmodSync(path.join(root, "home"), 0o755);
      fs.writeFileSync(path.join(root, "home/admin/.profile"), "PATH=/usr/bin:/bin\n", { mode: 0o644 });
      // A folder of root's the release user can reach, holding each part's namesake, in modes the
      // setup would change (so a set-up that followed a link would change them).
      outside = rootsFolder();
      fs.mkdirSync(path.join(outside, "home"), { mode: 0o700 });
      fs.writeFileSync(path.join(outside, "home/.profile"), "umask 022\n", { mode: 0o644 });
      fs.mkdirSync(path.join(outside, "release-requests"), { mode: 0o755 });
      fs.writeFileSync(path.join(outside, "release-requests/marker"), "root's\n", { mode: 0o640 });
      fs.writeFileSync(path.join(outside, "release.env"), "TOKEN=root's\n", { mode: 0o644 });
    });

    test("the reproduction: shared swapped for a link to a folder holding root's home leaves home root's", () => {
      plant("shared", "../..");
      try {
        const before = notTheReleases();
        const result = setup(copy, root);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`${linkProblem("shared", "../..")}; nothing under it was set up`);
        expect(result.stdout).not.toContain("/srv/cyrus/shared/");
        expect(stat(root, "home")).toEqual({ mode: "755", uid: 0, gid: 0 });
        expect(notTheReleases()).toEqual(before);
      } finally {
        unplant("shared");
      }
    });

    // Each part of each path the setup looks at below the release root, swapped for a link to a
    // folder of root's elsewhere or to a part of the server's own "/" (relative or absolute).
    const links: [string, string, (root: string, outside: string) => string][] = [
      ["shared", "a folder of root's elsewhere", (_root, outside) => outside],
      ["shared", "the server's /", (root) => root],
      ["shared/home", "a folder of root's elsewhere", (_root, outside) => path.join(outside, "home")],
      ["shared/home", "the server's /home, relative", () => "../../../home"],
      [
        "shared/release-requests",
        "a folder of root's elsewhere",
        (_root, outside) => path.join(outside, "release-requests"),
      ],
      ["shared/release-requests", "the server's /etc", (root) => path.join(root, "etc")],
      ["shared/release.env", "a file of root's elsewhere", (_root, outside) => path.join(outside, "release.env")],
      ["shared/release.env", "the service's secrets", (root) => path.join(root, "etc/cyrus/enquiry.env")],
    ];
    test.each(links)("%s as a link to %s: a PROBLEM naming it, and nothing outside changed", (part, _where, to) => {
      const target = to(root, outside);
      plant(part, target);
      try {
        const before = notTheReleases();
        const result = setup(copy, root);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(linkProblem(part, target));
        // The link's PROBLEM is the only one: nothing behind it was looked at.
        expect(result.stderr.match(/^PROBLEM: /gm)).toHaveLength(1);
        expect(result.stdout).not.toMatch(new RegExp(`^changed: /srv/cyrus/${part}`, "m"));
        expect(notTheReleases()).toEqual(before);
      } finally {
        unplant(part);
      }
    });

    test("a link's target is printed without the escapes it holds (the release user wrote it)", () => {
      plant("shared/home", "\u001b[2J\u001b]0;root\u0007/etc\n");
      try {
        const result = setup(copy, root);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(
          "PROBLEM: /srv/cyrus/shared/home is a link to ?[2J?]0;root?/etc?: not followed",
        );
        expect([...result.stderr].filter((c) => c !== "\n" && (c < " " || c === "\u007f"))).toEqual([]);
      } finally {
        unplant("shared/home");
      }
    });

    test("a folder of another user's is a PROBLEM, and nothing below it is changed; moved aside, it is made anew", () => {
      // shared/ root's, with the notes folder below it in a mode the setup would change.
      expect(as(release, ["chmod", "700", cyrus(root, "shared/release-requests")]).status).toBe(0);
      fs.chownSync(cyrus(root, "shared"), 0, 0);
      const stopped = setup(copy, root);
      fs.chownSync(cyrus(root, "shared"), release.uid, release.gid);
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toContain(
        "PROBLEM: /srv/cyrus/shared belongs to uid 0, not cyrus-release: not changed (root changes nothing under " +
          "the release root: as cyrus-release, move it aside, mv -- /srv/cyrus/shared /srv/cyrus/shared.old, and run " +
          "the setup again, which makes a new one; copy back what you keep)",
      );
      expect(stopped.stderr.match(/^PROBLEM: /gm)).toHaveLength(1);
      expect(stopped.stdout).not.toContain("/srv/cyrus/shared/");
      expect(stat(root, "srv/cyrus/shared/release-requests").mode).toBe("2700"); // chmod keeps a folder's setgid

      // shared/home root's: left so; as cyrus-release moved aside as the PROBLEM says, made anew.
      fs.chownSync(cyrus(root, "shared/home"), 0, 0);
      const foreign = setup(copy, root);
      expect(foreign.code).toBe(1);
      expect(foreign.stderr).toContain("PROBLEM: /srv/cyrus/shared/home belongs to uid 0, not cyrus-release");
      expect(stat(root, "srv/cyrus/shared/home")).toEqual({ mode: "755", uid: 0, gid: 0 });
      expect(foreign.stdout).toContain("changed: /srv/cyrus/shared/release-requests/ mode 2700 -> 2770");
      expect(as(release, ["mv", "--", cyrus(root, "shared/home"), cyrus(root, "shared/home.old")]).status).toBe(0);
      const anew = setup(copy, root);
      expect(anew.stderr).toBe("");
      expect(anew.code).toBe(0);
      expect(anew.stdout).toContain("changed: /srv/cyrus/shared/home/ created by cyrus-release (mode 755)");
      fs.rmSync(cyrus(root, "shared/home.old"), { recursive: true });
    });

    test("its own folder in another group: the release user gives it its own group", () => {
      fs.chownSync(cyrus(root, "shared/home"), release.uid, 0);
      const result = setup(copy, root);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`changed: /srv/cyrus/shared/home/ owner ${release.uid}:0 -> cyrus-release`);
      expect(stat(root, "srv/cyrus/shared/home")).toEqual({ mode: "755", uid: release.uid, gid: release.gid });
    });

    test("with the links gone, run again, it changes nothing", () => {
      const before = listing(root);
      const again = setup(copy, root);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/^setup: nothing to change$/m);
      expect(listing(root)).toEqual(before);
    });
  },
);

(isRoot ? describe : describe.skip)(
  "deploy/server/setup refuses a copy others could change, and writes nothing",
  () => {
    const refusals: [string, (copy: string) => string | void, RegExp][] = [
      [
        "its folder writable by its group",
        (copy) => void fs.chmodSync(path.join(copy, "deploy"), 0o775),
        /refused: \S+\/deploy may be written by its group or others \(mode 775\)/,
      ],
      [
        "a folder above it writable by anyone (sticky or not)",
        () => {
          const shared = rootsFolder();
          fs.chmodSync(shared, 0o1777);
          return copyOfProject(shared);
        },
        /refused: \S+ may be written by its group or others \(mode 1777\)/,
      ],
      [
        "a unit owned by another user",
        (copy) => void fs.chownSync(path.join(copy, "deploy/systemd/cyrus-nginx.service"), 65534, 65534),
        /refused: \S+cyrus-nginx\.service is owned by uid 65534, not root/,
      ],
      [
        "a file of it writable by others",
        (copy) => void fs.chmodSync(path.join(copy, "deploy/polkit/cyrus-release.rules"), 0o646),
        /refused: \S+cyrus-release\.rules may be written by its group or others/,
      ],
      [
        "a unit that is a link",
        (copy) => {
          fs.rmSync(path.join(copy, "deploy/systemd/cyrus-release.service"));
          fs.symlinkSync("/etc/passwd", path.join(copy, "deploy/systemd/cyrus-release.service"));
        },
        /refused: \S+cyrus-release\.service is a symbolic link, not a regular file/,
      ],
    ];
    test.each(refusals)("%s", (_name, spoil, message) => {
      const copy = copyOfProject();
      const spoiled = spoil(copy) ?? copy;
      const root = freshRoot();
      const before = listing(root);
      const result = setup(spoiled, root);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe("");
      expect(listing(root)).toEqual(before);
    });

    test("a TLS key in a folder another user owns, or a key that is a link, is refused", () => {
      const root = freshRoot();
      fs.chownSync(path.join(root, path.dirname(KEY)), 65534, 65534);
      const before = listing(root);
      const foreign = setup(copyOfProject(), root, ["--tls-key", KEY]);
      expect(foreign.code).toBe(1);
      expect(foreign.stderr).toMatch(/refused: \S+\/etc\/cyrus\/tls is owned by uid 65534, not root/);
      expect(listing(root)).toEqual(before);
      fs.chownSync(path.join(root, path.dirname(KEY)), 0, 0);
      fs.rmSync(path.join(root, KEY));
      fs.symlinkSync("/etc/shadow", path.join(root, KEY));
      const shadow = () => {
        const st = fs.statSync("/etc/shadow");
        return [st.mode, st.uid, st.gid];
      };
      const shadowBefore = shadow();
      const linked = setup(copyOfProject(), root, ["--tls-key", KEY]);
      expect(linked.code).toBe(1);
      expect(linked.stderr).toBe(
        `setup: refused: --tls-key ${KEY} is a symbolic link, not a regular file: give the file itself (the setup copies it here)\n`,
      );
      expect(shadow()).toEqual(shadowBefore);
    });

    test("from under the release root, or run by another user, it refuses too", () => {
      const root = freshRoot();
      const before = listing(root);
      const underRelease = copyOfProject(
        (() => {
          fs.mkdirSync(path.join(root, "srv/cyrus/current"), { recursive: true, mode: 0o755 });
          return path.join(root, "srv/cyrus/current");
        })(),
      );
      const fromRelease = setup(underRelease, root);
      expect(fromRelease.code).toBe(1);
      expect(fromRelease.stderr).toContain("is under the release root");
      const asNobody = setup(copyOfProject(), root, [], 65534);
      expect(asNobody.code).toBe(1);
      expect(asNobody.stderr).toContain("run it as root");
      fs.rmSync(path.join(root, "srv"), { recursive: true });
      expect(listing(root)).toEqual(before);
    });
  },
);

/** Lines of a listing, less those below `dir` (a path in the root, without its leading /). */
const outside = (lines: string[], dir: string) => lines.filter((line) => !line.startsWith(`${dir}/`));

(isRoot ? describe : describe.skip)("deploy/server/setup runs the units on a Node of 22.13 or later", () => {
  const below = (() => {
    const [major, minor, patch] = NODE_NEEDED.split(".").map(Number) as [number, number, number];
    return patch > 0 ? `${major}.${minor}.${patch - 1}` : `${major}.${minor - 1}.99`;
  })();
  const needs =
    `the site needs Node.js ${NODE_NEEDED} or later: install it as docs/server.md says, "Node.js 22": ` +
    "NodeSource's node_22.x apt repository, then apt-get install -y nodejs\n";

  test.each([
    ["Debian 13's", "20.11.0"],
    ["one just older than package.json's", below],
  ])("%s Node (v%s) is refused, in one line, and nothing is written", (_name, version) => {
    const root = freshRoot();
    fakeNode(root, "/usr/bin", version);
    const before = listing(root);
    const result = setup(copyOfProject(), root);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `setup: refused: /usr/bin/node is Node.js v${version}; ${needs}`,
    });
    expect(listing(root)).toEqual(before);
  });

  test("no Node at all is refused the same way", () => {
    const root = freshRoot();
    fs.rmSync(path.join(root, "usr"), { recursive: true });
    const before = listing(root);
    const result = setup(copyOfProject(), root);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `setup: refused: no node on PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin); ${needs}`,
    });
    expect(listing(root)).toEqual(before);
  });

  test("Node in /usr/local (nodejs.org's tarball) is what the units run; run again, nothing to change", () => {
    const root = freshRoot();
    fakeNode(root, "/usr/local/bin", NODE_NEEDED);
    const copy = copyOfProject();
    const first = setup(copy, root);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`ok:      Node.js v${NODE_NEEDED} at /usr/local/bin/node (the units run it)\n`);
    let replaced = 0;
    for (const unit of UNITS) {
      const source = fs.readFileSync(path.join(projectRoot, "deploy/systemd", unit), "utf8");
      const installed = fs.readFileSync(path.join(root, "etc/systemd/system", unit), "utf8");
      // The word /usr/bin/node alone replaced (after ExecStart= or backup's --node), and nothing else.
      expect(installed).toBe(source.replace(/(?<=[=\s])\/usr\/bin\/node(?=\s)/g, "/usr/local/bin/node"));
      expect(installed).not.toContain("/usr/bin/node");
      if (installed !== source) {
        replaced += 1;
        expect(first.stdout).toContain(
          `changed: /etc/systemd/system/${unit} installed from deploy/systemd/${unit} (its Node: /usr/local/bin/node)\n`,
        );
      }
    }
    expect(replaced).toBeGreaterThanOrEqual(4); // the service, both release units and the backup's
    const before = listing(root);
    const again = setup(copy, root);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("changed:");
    expect(again.stdout).toMatch(/^setup: nothing to change$/m);
    expect(listing(root)).toEqual(before);
  });

  const refusals: [string, (root: string) => string[], string][] = [
    [
      "--node writable by its group",
      (root) => ["--node", fakeNode(root, "/usr/local/bin", NODE_NEEDED, 0o775)],
      "setup: refused: ROOT/usr/local/bin/node may be written by its group or others (mode 775): root's units would run what another user wrote\n",
    ],
    [
      "--node owned by another user",
      (root) => {
        const node = fakeNode(root, "/usr/local/bin", NODE_NEEDED);
        fs.chownSync(path.join(root, node), 65534, 65534);
        return ["--node", node];
      },
      "setup: refused: ROOT/usr/local/bin/node is owned by uid 65534, not root: root's units would run what another user wrote\n",
    ],
    [
      "--node in a folder another user may write",
      (root) => {
        const node = fakeNode(root, "/opt/node/bin", NODE_NEEDED);
        fs.chmodSync(path.join(root, "opt/node"), 0o777);
        return ["--node", node];
      },
      "setup: refused: ROOT/opt/node may be written by its group or others (mode 777): a user other than root could change what root installs\n",
    ],
    [
      "--node that PATH does not find first (npm would run another)",
      (root) => ["--node", fakeNode(root, "/opt/node/bin", NODE_NEEDED)],
      "setup: refused: --node /opt/node/bin/node is not the node first on PATH " +
        "(/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin: /usr/bin/node), which the releases' npm runs: " +
        `put Node.js ${NODE_NEEDED} or later first there, or give that one\n`,
    ],
  ];
  test.each(refusals)("%s is refused, and nothing is written", (_name, give, message) => {
    const root = freshRoot();
    const extra = give(root);
    const before = listing(root);
    const result = setup(copyOfProject(), root, extra);
    expect(result).toEqual({ code: 1, stdout: "", stderr: message.replace("ROOT", root) });
    expect(listing(root)).toEqual(before);
  });

  test("--node naming the node PATH finds first is taken, and npm must be there", () => {
    const root = freshRoot();
    fs.rmSync(path.join(root, "usr/bin/npm"));
    const before = listing(root);
    const noNpm = setup(copyOfProject(), root, ["--node", "/usr/bin/node"]);
    expect(noNpm.code).toBe(1);
    expect(noNpm.stderr).toMatch(
      /^setup: refused: npm is not on PATH \([^)]*\): the first release and every release run it/,
    );
    expect(listing(root)).toEqual(before);
    fakeNode(root, "/usr/bin", NODE_NEEDED);
    const given = setup(copyOfProject(), root, ["--node", "/usr/bin/node"]);
    expect(given.stderr).toBe("");
    expect(given.code).toBe(0);
  });
});

(isRoot ? describe : describe.skip)("deploy/server/setup copies the TLS files into its own folder", () => {
  const SSL_CERT_GID = 4242; // Debian's ssl-cert group, made up here
  /** A key and certificate of root's at `dir` in the new root, that folder made `mode` (and `gid`). */
  const place = (root: string, dir: string, mode: number, gid = 0) => {
    fs.mkdirSync(path.join(root, dir), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.join(root, dir), mode);
    fs.chownSync(path.join(root, dir), 0, gid);
    const key = path.join(dir, "site.key");
    const cert = path.join(dir, "site.crt");
    fs.writeFileSync(path.join(root, key), "-----BEGIN PRIVATE KEY-----\nnew one\n", { mode: 0o600 });
    fs.writeFileSync(path.join(root, cert), "-----BEGIN CERTIFICATE-----\nnew one\n", { mode: 0o644 });
    return { key, cert };
  };

  test.each([
    ["in /etc", "/etc", 0o755, 0],
    ["in /etc/ssl/private (root:ssl-cert 710)", "/etc/ssl/private", 0o710, SSL_CERT_GID],
    ["directly in /etc/cyrus", "/etc/cyrus", 0o755, 0],
  ])(
    "a key and certificate %s: copied, no folder but the setup's own changed; run again, nothing to change",
    (_name, dir, mode, gid) => {
      const root = freshRoot();
      fs.rmSync(path.join(root, "etc/cyrus"), { recursive: true });
      const copy = copyOfProject();
      expect(setup(copy, root).code).toBe(0);
      const { key, cert } = place(root, dir, mode, gid);
      const web = ids(root, "cyrus-web");
      const before = listing(root);
      const result = setup(copy, root, ["--tls-cert", cert, "--tls-key", key]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("changed: /etc/cyrus/tls/ created (mode 0750)\n");
      expect(result.stdout).toContain(
        `changed: /etc/cyrus/tls/fullchain.pem copied from ${cert} (root:cyrus-web, mode 640)\n`,
      );
      expect(result.stdout).toContain(
        `changed: /etc/cyrus/tls/privkey.pem copied from ${key} (root:cyrus-web, mode 640)\n`,
      );
      // Everything as it was (the files given, their folders, /etc, /etc/cyrus), but the setup's folder.
      expect(outside(listing(root), "etc/cyrus/tls").filter((line) => !line.startsWith("etc/cyrus/tls "))).toEqual(
        before,
      );
      expect(stat(root, dir.slice(1))).toEqual({ mode: mode.toString(8), uid: 0, gid });
      expect(stat(root, "etc/cyrus/tls")).toEqual({ mode: "750", uid: 0, gid: web.gid });
      for (const [copied, from] of [
        ["etc/cyrus/tls/privkey.pem", key],
        ["etc/cyrus/tls/fullchain.pem", cert],
      ]) {
        expect(stat(root, copied!)).toEqual({ mode: "640", uid: 0, gid: web.gid });
        expect(fs.readFileSync(path.join(root, copied!), "utf8")).toBe(fs.readFileSync(path.join(root, from!), "utf8"));
      }
      expect(as(web, ["cat", path.join(root, "etc/cyrus/tls/privkey.pem")]).status).toBe(0);
      for (const other of [ids(root, "cyrus-release"), ids(root, "cyrus")])
        expect(as(other, ["cat", path.join(root, "etc/cyrus/tls/privkey.pem")]).stderr).toContain("Permission denied");

      const settled = listing(root);
      const again = setup(copy, root, ["--tls-cert", cert, "--tls-key", key]);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/^setup: nothing to change$/m);
      expect(again.stdout).toContain(
        `ok:      /etc/cyrus/tls/privkey.pem (the same as ${key}; root:cyrus-web, mode 640)\n`,
      );
      expect(listing(root)).toEqual(settled);

      // Renewed: copied anew, the rest left as it was.
      fs.writeFileSync(path.join(root, key), "-----BEGIN PRIVATE KEY-----\nrenewed\n");
      const renewed = setup(copy, root, ["--tls-cert", cert, "--tls-key", key]);
      expect(renewed.code).toBe(0);
      expect(renewed.stdout.match(/^changed: /gm)).toEqual(["changed: "]);
      expect(renewed.stdout).toContain(
        `changed: /etc/cyrus/tls/privkey.pem copied from ${key} (root:cyrus-web, mode 640)\n`,
      );
      expect(fs.readFileSync(path.join(root, "etc/cyrus/tls/privkey.pem"), "utf8")).toContain("renewed");
      expect(stat(root, key.slice(1))).toEqual({ mode: "600", uid: 0, gid: 0 });
    },
  );

  test("a key reached through a link (certbot's live/ into archive/) is copied from the file it leads to", () => {
    const root = freshRoot();
    const { key } = place(root, "/etc/letsencrypt/archive/site", 0o700);
    fs.mkdirSync(path.join(root, "etc/letsencrypt/live/site"), { recursive: true, mode: 0o700 });
    fs.symlinkSync("../../archive/site/site.key", path.join(root, "etc/letsencrypt/live/site/privkey.pem"));
    const result = setup(copyOfProject(), root, ["--tls-key", "/etc/letsencrypt/live/site/privkey.pem"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(fs.readFileSync(path.join(root, "etc/cyrus/tls/privkey.pem"), "utf8")).toBe(
      fs.readFileSync(path.join(root, key), "utf8"),
    );
    expect(fs.lstatSync(path.join(root, "etc/letsencrypt/live/site/privkey.pem")).isSymbolicLink()).toBe(true);
  });

  test("a key another user could swap (its folder theirs, or a link out of --root) is refused, and nothing is written", () => {
    const root = freshRoot();
    const { key } = place(root, "/home/admin", 0o755);
    fs.chownSync(path.join(root, "home/admin"), 65534, 65534);
    fs.symlinkSync("/etc/shadow", path.join(root, "home/shadow.key"));
    const before = listing(root);
    const theirs = setup(copyOfProject(), root, ["--tls-key", key]);
    expect(theirs).toEqual({
      code: 1,
      stdout: "",
      stderr: `setup: refused: ${root}/home/admin is owned by uid 65534, not root: a user other than root could change what root installs\n`,
    });
    const out = setup(copyOfProject(), root, ["--tls-key", "/home/shadow.key"]);
    expect(out).toEqual({
      code: 1,
      stdout: "",
      stderr: `setup: --tls-key /home/shadow.key does not exist within --root ${root}\n`,
    });
    expect(listing(root)).toEqual(before);
  });
});

(isRoot ? describe : describe.skip)("deploy/server/setup with --domain and --email: the certificate by ACME", () => {
  const DOMAIN = "www.example.com";
  const EMAIL = "ops@example.com";
  const ACME = ["--domain", DOMAIN, "--email", EMAIL];
  const SETTINGS = "etc/cyrus/certificates.env";
  const TIMER_LINK = "etc/systemd/system/timers.target.wants/cyrus-certificates.timer";
  const PLACEHOLDER =
    `TLS certificate for ${DOMAIN} by ACME: a self-signed placeholder for now (systemd not asked); the setup on ` +
    "the running server, or cyrus-certificates.timer, obtains the certificate\n";
  /** Debian's lego where its package puts it: configure asks no CA, so a stand-in that is there is enough. */
  const withLego = (root: string) => {
    fs.writeFileSync(path.join(root, "usr/bin/lego"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    return root;
  };
  /** The state file for doctor, rewritten (its time) at every run of the certificates script. */
  const settled = (root: string) =>
    listing(root).filter((line) => !line.startsWith("var/lib/cyrus-certificates/last-renewal "));
  const openssl = (file: string, ...args: string[]) =>
    spawnSync("openssl", ["x509", "-in", file, "-noout", ...args], { encoding: "utf8" }).stdout.trim();

  let copy: string;
  let root: string;
  let first: ReturnType<typeof setup>;
  beforeAll(() => {
    copy = copyOfProject();
    root = withLego(freshRoot());
    first = setup(copy, root, ACME);
  });

  test("installs the script and its units, makes cyrus-acme (not in group cyrus-web), writes the settings and a placeholder, and enables the timer", () => {
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      "changed: /usr/local/lib/cyrus/certificates installed from deploy/server/certificates\n",
    );
    expect(stat(root, "usr/local/lib/cyrus/certificates")).toEqual({ mode: "755", uid: 0, gid: 0 });
    expect(fs.readFileSync(path.join(root, "usr/local/lib/cyrus/certificates"))).toEqual(
      fs.readFileSync(path.join(projectRoot, "deploy/server/certificates")),
    );
    for (const unit of ["cyrus-certificates.service", "cyrus-certificates.timer"])
      expect(stat(root, `etc/systemd/system/${unit}`)).toEqual({ mode: "644", uid: 0, gid: 0 });
    expect(fs.readlinkSync(path.join(root, TIMER_LINK))).toBe("/etc/systemd/system/cyrus-certificates.timer");
    expect(first.stdout).toContain("changed: cyrus-certificates.timer enabled\n");

    const acme = entry(root, "passwd", "cyrus-acme")!;
    const web = ids(root, "cyrus-web");
    expect(first.stdout).toContain("changed: user cyrus-acme created");
    expect(acme[5]).toBe("/var/lib/cyrus-acme");
    expect(Number(acme[3])).not.toBe(web.gid);
    expect(entry(root, "group", "cyrus-web")![3]!.split(",")).not.toContain("cyrus-acme");

    expect(stat(root, SETTINGS)).toEqual({ mode: "600", uid: 0, gid: 0 });
    const settings = fs.readFileSync(path.join(root, SETTINGS), "utf8").split("\n");
    expect(settings).toEqual(expect.arrayContaining([`DOMAIN=${DOMAIN}`, `EMAIL=${EMAIL}`]));

    // The placeholder: nginx's user reads the key, the ACME client's cannot.
    expect(stat(root, "etc/cyrus/tls")).toEqual({ mode: "750", uid: 0, gid: web.gid });
    expect(stat(root, KEY.slice(1))).toEqual({ mode: "640", uid: 0, gid: web.gid });
    expect(stat(root, "etc/cyrus/tls/fullchain.pem")).toEqual({ mode: "644", uid: 0, gid: 0 });
    const cert = path.join(root, "etc/cyrus/tls/fullchain.pem");
    expect(openssl(cert, "-checkhost", DOMAIN)).toContain("does match");
    expect(openssl(cert, "-subject")).toContain("Placeholder");
    expect(as(web, ["cat", path.join(root, KEY)]).status).toBe(0);
    const byAcme = as({ uid: Number(acme[2]), gid: Number(acme[3]) }, ["cat", path.join(root, KEY)]);
    expect(byAcme.stderr).toContain("Permission denied");
    expect(first.stdout).toContain(`changed: ${PLACEHOLDER}`);
    expect(first.stdout).not.toContain("the TLS files not looked at");
  });

  test("run again with the same --domain and --email: nothing to change", () => {
    const before = settled(root);
    const again = setup(copy, root, ACME);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("changed:");
    expect(again.stdout).toContain(`ok:      ${PLACEHOLDER}`);
    expect(again.stdout).toContain("ok:      cyrus-certificates.timer enabled\n");
    expect(again.stdout).toMatch(/^setup: nothing to change$/m);
    expect(settled(root)).toEqual(before);
  });

  test("run without --domain: the certificates' settings, key and timer left as they are", () => {
    const before = listing(root);
    const again = setup(copy, root);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^setup: nothing to change$/m);
    expect(again.stdout).not.toContain("certificates:");
    expect(listing(root)).toEqual(before);
  });

  test("another --email: the settings rewritten, the certificate kept", () => {
    const key = fs.readFileSync(path.join(root, KEY));
    const result = setup(copy, root, ["--domain", DOMAIN, "--email", "certs@example.com"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.match(/^changed: .*$/gm)).toEqual([`changed: ${PLACEHOLDER.trimEnd()}`]);
    expect(fs.readFileSync(path.join(root, SETTINGS), "utf8")).toContain("\nEMAIL=certs@example.com\n");
    expect(stat(root, SETTINGS)).toEqual({ mode: "600", uid: 0, gid: 0 });
    expect(fs.readFileSync(path.join(root, KEY))).toEqual(key);
  });

  test("--tls-cert/--tls-key once the certificate is by ACME: refused, nothing written", () => {
    const before = listing(root);
    const result = setup(copy, root, ["--tls-key", KEY]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `setup: refused: the certificate is obtained by ACME (/etc/cyrus/certificates.env, for ${DOMAIN}): its next ` +
        "renewal would replace --tls-cert and --tls-key; to use yours, remove /etc/cyrus/certificates.env first\n",
    });
    expect(listing(root)).toEqual(before);
  });

  const notHost = (name: string) =>
    `setup: --domain "${name}" is not a host name (letters, digits, hyphens and dots, e.g. www.example.com)\n`;
  const notEmail = (address: string) => `setup: --email "${address}" is not an e-mail address (e.g. ops@example.com)\n`;
  const refusals: [string, string[], string][] = [
    ["a name with a leading hyphen", ["--domain", "-www.example.com", "--email", EMAIL], notHost("-www.example.com")],
    ["a name with a space", ["--domain", "www.example .com", "--email", EMAIL], notHost("www.example .com")],
    ["a name with a semicolon", ["--domain", "www.example.com;id", "--email", EMAIL], notHost("www.example.com;id")],
    ["a name without a dot", ["--domain", "localhost", "--email", EMAIL], notHost("localhost")],
    ["an address without @", ["--domain", DOMAIN, "--email", "ops.example.com"], notEmail("ops.example.com")],
    ["an address with two @", ["--domain", DOMAIN, "--email", "ops@x@example.com"], notEmail("ops@x@example.com")],
    ["an address with a space", ["--domain", DOMAIN, "--email", "ops @example.com"], notEmail("ops @example.com")],
    [
      "an address with a line break",
      ["--domain", DOMAIN, "--email", "ops@example.com\nX=1"],
      notEmail("ops@example.com\nX=1"),
    ],
    [
      "--domain without --email",
      ["--domain", DOMAIN],
      "setup: --domain and --email go together (the CA's account is under the address)\n",
    ],
    [
      "--email without --domain",
      ["--email", EMAIL],
      "setup: --domain and --email go together (the CA's account is under the address)\n",
    ],
    [
      "--domain with --tls-key",
      [...ACME, "--tls-key", KEY],
      "setup: --domain with --tls-cert or --tls-key: one source of certificates (--domain obtains them by ACME; " +
        "--tls-cert and --tls-key copy yours)\n",
    ],
  ];
  test.each(refusals)("%s: refused, and nothing written", (_name, args, message) => {
    const fresh = withLego(freshRoot());
    const before = listing(fresh);
    expect(setup(copyOfProject(), fresh, args)).toEqual({ code: 1, stdout: "", stderr: message });
    expect(listing(fresh)).toEqual(before);
  });

  test("lego not installed: refused in one line naming the package, and nothing written", () => {
    const fresh = freshRoot();
    const before = listing(fresh);
    expect(setup(copyOfProject(), fresh, ACME)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "setup: refused: --domain: lego, which obtains the certificate, is not installed (/usr/bin/lego): apt-get install lego\n",
    });
    expect(listing(fresh)).toEqual(before);
  });

  test("cyrus-acme in group cyrus-web (it would read the key): refused, and nothing written", () => {
    const fresh = withLego(freshRoot());
    const copy = copyOfProject();
    expect(setup(copy, fresh).code).toBe(0);
    expect(spawnSync("usermod", ["--prefix", fresh, "-a", "-G", "cyrus-web", "cyrus-acme"]).status).toBe(0);
    const before = listing(fresh);
    expect(setup(copy, fresh, ACME)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "setup: refused: user cyrus-acme is in group cyrus-web, which reads the TLS key: remove it " +
        "(gpasswd -d cyrus-acme cyrus-web)\n",
    });
    expect(listing(fresh)).toEqual(before);
  });
});

(isRoot ? describe : describe.skip)("deploy/server/setup refuses a --root it cannot use, and writes nothing", () => {
  test("a bare folder (no etc/passwd, etc/group)", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-setup-bare-"));
    dirs.push(root);
    fs.chmodSync(root, 0o755);
    const result = setup(copyOfProject(), root);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `setup: refused: --root ${root} holds no etc/passwd: the setup adds its users there (useradd --prefix); ` +
        "copy a system's /etc/passwd and /etc/group (and shadow, gshadow) there first\n",
    });
    expect(fs.readdirSync(root)).toEqual([]);
  });

  test("one where a file the setup keeps is a folder: refused before its users are made", () => {
    const root = freshRoot();
    fs.mkdirSync(path.join(root, "etc/cyrus/enquiry.env"), { recursive: true });
    const before = listing(root);
    const result = setup(copyOfProject(), root);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "setup: refused: /etc/cyrus/enquiry.env is a directory, not a regular file: the setup replaces nothing " +
        "of another kind (move it aside)\n",
    });
    expect(listing(root)).toEqual(before);
  });

  test("a folder of mode 700 (the site's users could not reach below it)", () => {
    const root = freshRoot();
    fs.chmodSync(root, 0o700);
    const before = listing(root);
    const result = setup(copyOfProject(), root);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `setup: refused: --root ${root}: ${root} is mode 700, so the site's users could not reach what is set up below it (chmod o+x ${root})\n`,
    });
    expect(listing(root)).toEqual(before);
  });
});

(isRoot ? describe : describe.skip)(
  "the copy as the page lays it out: the release user runs the first release, and cannot read .git",
  () => {
    const git = (copy: string, ...args: string[]) => {
      const result = spawnSync(
        "git",
        ["-C", copy, "-c", "user.name=Root", "-c", "user.email=root@example.com", ...args],
        {
          encoding: "utf8",
        },
      );
      expect(result.stderr).not.toMatch(/fatal|error/);
      return result.stdout.trim();
    };
    /**
     * A checkout as `git clone` makes one (umask 022: folders 755, files 644, .git/config 644), with a
     * token in its config.
     */
    const checkout = () => {
      const copy = copyOfProject();
      git(copy, "init", "--quiet");
      git(copy, "config", "remote.origin.url", "https://x-access-token:secret-token@git.example.com/site.git");
      git(copy, "add", ".");
      git(copy, "commit", "--quiet", "-m", "the site");
      return copy;
    };
    /** A folder of root's, 700, as /root is: where sudo leaves the release user. */
    const rootsHome = () => {
      const home = rootsFolder();
      fs.chmodSync(home, 0o700);
      return home;
    };

    test("at a release tag: named; .git made root's alone; the release user runs first-release, which asks for RELEASE_REPO, then SITE_URL", () => {
      const copy = checkout();
      git(copy, "tag", "v1.0.0");
      const commit = git(copy, "rev-parse", "HEAD");
      expect(fs.statSync(path.join(copy, ".git")).mode & 0o777).toBe(0o755);
      const root = freshRoot();
      const result = setup(copy, root);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout.split("\n")[0]).toBe(
        `setup: running from v1.0.0 (commit ${commit.slice(0, 12)}, in ${copy})`,
      );
      expect(result.stdout).toContain(
        `changed: ${copy}/.git mode 755 -> 700 (its config may hold the repository's token)\n`,
      );
      expect(result.stdout).toContain(
        `ok:      cyrus-release can run ${copy}/deploy/release/first-release (no release is live yet: the first release runs it)\n`,
      );
      const release = ids(root, "cyrus-release");
      const read = as(release, ["cat", path.join(copy, ".git/config")]);
      expect(read.status).not.toBe(0);
      expect(read.stderr).toContain("Permission denied");
      // The page's command, sudo -u cyrus-release /opt/cyrus-setup/deploy/release/first-release, from root's home.
      const firstRelease = () =>
        spawnSync(
          "setpriv",
          [
            `--reuid=${release.uid}`,
            `--regid=${release.gid}`,
            "--clear-groups",
            path.join(copy, "deploy/release/first-release"),
            "--root",
            path.join(root, "srv/cyrus"),
          ],
          { encoding: "utf8", cwd: rootsHome() },
        );
      const settings = path.join(root, "srv/cyrus/shared/release.env");
      const unset = (name: string, what: string) =>
        `first-release: ${name} is not set (${what}; in ${settings} or the environment)\n`;
      // The example as installed: its two lines to fill in are asked for, one by one, before any fetch.
      const first = firstRelease();
      expect(first.stderr).toBe(unset("RELEASE_REPO", "the site's git repository"));
      expect(first.status).toBe(1);
      const text = fs.readFileSync(settings, "utf8");
      fs.writeFileSync(settings, text.replace(/^RELEASE_REPO=$/m, "RELEASE_REPO=https://git.example.com/site.git"));
      const second = firstRelease();
      expect(second.stderr).toBe(unset("SITE_URL", "the site's address, https://…"));
      expect(second.stdout).toBe("");
      expect(second.status).toBe(1);
      const again = setup(copy, root);
      expect(again.stdout).toContain(`ok:      ${copy}/.git (mode 700: root's alone)\n`);
      expect(again.stdout).toMatch(/^setup: nothing to change$/m);
    });

    test("not at a tag: said so; a copy of mode 700 (as the page once said) is a PROBLEM naming it", () => {
      const copy = checkout();
      const commit = git(copy, "rev-parse", "HEAD");
      fs.chmodSync(copy, 0o700);
      const root = freshRoot();
      const result = setup(copy, root);
      expect(result.stdout.split("\n")[0]).toBe(
        `setup: running from commit ${commit.slice(0, 12)} (not a release tag: check out one in ${copy}, git checkout v…)`,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `PROBLEM: cyrus-release cannot run ${copy}/deploy/release/first-release, which the first release runs: ` +
          `${copy} is mode 700; chmod o+rx ${copy} (the copy's .git stays root's alone) and run the setup again\n` +
          `setup: ${result.stdout.match(/^changed: /gm)!.length} change(s), 1 problem(s) left as they were (above)\n`,
      );
      // What the release user met: sudo's "Permission denied", exit 126.
      const release = ids(root, "cyrus-release");
      const denied = as(release, [path.join(copy, "deploy/release/first-release")]);
      expect(denied.status).toBe(126);
      fs.chmodSync(copy, 0o755);
      const fixed = setup(copy, root);
      expect(fixed.stderr).toBe("");
      expect(fixed.code).toBe(0);
    });

    test("without bubblewrap: a PROBLEM saying what to install, and the rest set up; installed, none", () => {
      const copy = copyOfProject();
      const root = freshRoot();
      fs.rmSync(path.join(root, "usr/bin/bwrap"));
      const result = setup(copy, root);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        "PROBLEM: releases need bubblewrap: apt-get install bubblewrap\n" +
          `setup: ${result.stdout.match(/^changed: /gm)!.length} change(s), 1 problem(s) left as they were (above)\n`,
      );
      expect(fs.existsSync(path.join(root, "srv/cyrus/shared/release.env"))).toBe(true);
      fs.writeFileSync(path.join(root, "usr/bin/bwrap"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
      const fixed = setup(copy, root);
      expect({ code: fixed.code, stderr: fixed.stderr }).toEqual({ code: 0, stderr: "" });
      expect(fixed.stdout).toMatch(/^setup: nothing to change$/m);
    });
  },
);

describe("the example settings files list every setting the code reads", () => {
  const example = (name: string) => fs.readFileSync(path.join(projectRoot, "deploy/examples", name), "utf8");
  /** KEY=… lines, commented out or not (a comment's `KEY=` names a setting too). */
  const named = (text: string) => new Set([...text.matchAll(/(?:^|[\s#])([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!));
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(file);
      return entry.name.endsWith(".ts") ? [file] : [];
    });

  test("release.env: every variable deploy/release/settings.ts reads, its defaults commented out as they are", () => {
    const code = fs.readFileSync(path.join(projectRoot, "deploy/release/settings.ts"), "utf8");
    const read = new Set([
      ...[...code.matchAll(/\bget\("([A-Z][A-Z0-9_]+)"\)/g)].map((m) => m[1]!),
      ...[...code.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!),
      ...Object.keys(DEFAULTS),
    ]);
    expect(read.size).toBeGreaterThan(15);
    const text = example("release.env");
    expect([...read].filter((key) => !named(text).has(key))).toEqual([]);
    for (const [key, value] of Object.entries(DEFAULTS)) expect(text).toContain(`\n# ${key}=${value}\n`);
  });

  test("release.env as installed: the release refuses it until RELEASE_REPO and SITE_URL are filled in, then takes the defaults", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-release-env-"));
    dirs.push(dir);
    const file = path.join(dir, "release.env");
    const settings = (text: string) => {
      fs.writeFileSync(file, text, { mode: 0o600 });
      return () => readSettings({ RELEASE_ROOT: dir, RELEASE_SETTINGS: file });
    };
    const text = example("release.env");
    expect(settings(text)).toThrow(
      `RELEASE_REPO is not set (the site's git repository; in ${file} or the environment)`,
    );
    const repo = text.replace(/^RELEASE_REPO=$/m, "RELEASE_REPO=https://git.example.com/site.git");
    expect(settings(repo)).toThrow("RELEASE_LIVE_URL (or SITE_URL) is not set");
    const filled = settings(repo.replace(/^SITE_URL=$/m, "SITE_URL=https://www.cyrus.example"))();
    expect(filled).toMatchObject({
      branch: DEFAULTS.RELEASE_BRANCH,
      keep: Number(DEFAULTS.RELEASE_KEEP),
      nginxArgs: [],
      nginxTest: DEFAULTS.RELEASE_NGINX_TEST,
      nginxReload: DEFAULTS.RELEASE_NGINX_RELOAD,
      serviceRestart: DEFAULTS.RELEASE_SERVICE_RESTART,
      npmCi: DEFAULTS.RELEASE_NPM_CI,
      liveUrl: "https://www.cyrus.example",
    });
    // The TLS line the example shows names the setup's copies.
    expect(text).toContain("--tls-cert /etc/cyrus/tls/fullchain.pem --tls-key /etc/cyrus/tls/privkey.pem");
  });

  test("release.env's RELEASE_NGINX_ARGS example: render.ts takes it as a release passes it, TLS with the ACME challenges, from the first release on", () => {
    const text = example("release.env");
    const lines = [...text.matchAll(/^# {3}RELEASE_NGINX_ARGS=(.+)$/gm)].map((m) => m[1]!);
    // One line: the setup obtains the certificate before the first release, so no plain-HTTP first
    // release, and the live check asks SITE_URL (https), not a plain-HTTP RELEASE_LIVE_URL.
    expect(lines).toHaveLength(1);
    expect(text).not.toMatch(/RELEASE_LIVE_URL=http:/);
    const rendered = lines.map((line) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-release-env-nginx-"));
      dirs.push(dir);
      fs.mkdirSync(path.join(dir, "public/home"), { recursive: true });
      fs.writeFileSync(path.join(dir, "public/404.html"), "<!DOCTYPE html><title>Not found</title>");
      fs.writeFileSync(path.join(dir, "public/home/index.html"), "<!DOCTYPE html><title>Home</title>");
      const out = path.join(dir, "nginx");
      const args = ["deploy/nginx/render.ts", "--standalone", "--root", path.join(dir, "public"), "--out", out];
      const result = spawnSync(process.execPath, ["--import", "tsx", ...args, ...line.split(" ")], {
        cwd: projectRoot,
        encoding: "utf8",
      });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      return fs.readFileSync(path.join(out, "cyrus.conf"), "utf8");
    });
    const tls = rendered[0]!;
    const challenge = /location \^~ \/\.well-known\/acme-challenge\/ \{\n\s+root \/var\/lib\/cyrus-acme-challenge;/g;
    // TLS: the setup's copies (or the certificates script's), plain HTTP on IPv4 and IPv6 redirected but
    // for the challenges, answered there and on the site's own server.
    expect(tls).toContain("ssl_certificate /etc/cyrus/tls/fullchain.pem;");
    expect(tls).toContain("ssl_certificate_key /etc/cyrus/tls/privkey.pem;");
    expect(tls).toMatch(/server \{\n {4}listen 80;\n {4}listen \[::\]:80;\n {4}server_name www\.example\.com;/);
    expect(tls.match(challenge)).toHaveLength(2);
  });

  test("enquiry.env: every variable the service reads (src/site-service), SITE_URL among those to fill in", () => {
    const read = new Set(
      sources(path.join(projectRoot, "src/site-service")).flatMap((file) =>
        [...fs.readFileSync(file, "utf8").matchAll(/\bvalue\("([A-Z][A-Z0-9_]+)"\)/g)].map((m) => m[1]!),
      ),
    );
    expect(read.size).toBeGreaterThan(25);
    const text = example("enquiry.env");
    expect([...read].filter((key) => !named(text).has(key))).toEqual([]);
    // Not commented out: the lines to fill in, empty until then.
    expect(text.match(/^[A-Z][A-Z0-9_]*=.*$/gm)).toEqual(["SITE_URL=", "SMTP_URL=", "ENQUIRY_TO="]);
  });
});
