/**
 * deploy/server/setup, the one command root runs on a server (docs/deployment.md, "Setting up a
 * server"), run as root into a fresh temporary --root (systemd is not running here: the units are
 * enabled offline and checked with systemd-analyze verify). It sets up users, folders, modes, units,
 * the polkit rule, the module check and the TLS key's access; run again it changes nothing; it
 * refuses a copy that a user other than root could change, and writes nothing then; a link the
 * release user plants at any part of a path below the release root is a PROBLEM, never followed, and
 * leaves everything outside the release root as it was.
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

/** The project's copy the operator keeps (only what the setup takes from it), root's throughout. */
function copyOfProject(parent = rootsFolder()): string {
  const copy = path.join(parent, "cyrus-setup");
  for (const dir of ["deploy/server", "deploy/systemd", "deploy/polkit"]) {
    fs.mkdirSync(path.join(copy, dir), { recursive: true, mode: 0o755 });
    for (const name of fs.readdirSync(path.join(projectRoot, dir))) {
      const from = path.join(projectRoot, dir, name);
      fs.copyFileSync(from, path.join(copy, dir, name));
      fs.chmodSync(path.join(copy, dir, name), fs.statSync(from).mode & 0o755);
    }
  }
  spawnSync("chmod", ["-R", "go-w", copy]);
  return copy;
}

/** A new server's root: its users' files, and a TLS key copied there as root would (0644). */
function freshRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-setup-root-"));
  dirs.push(root);
  // "/" of the new server: everyone may go through it.
  fs.chmodSync(root, 0o755);
  fs.mkdirSync(path.join(root, "etc"));
  for (const file of ["passwd", "group", "shadow", "gshadow"])
    fs.copyFileSync(`/etc/${file}`, path.join(root, "etc", file));
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
    for (const name of ["cyrus-release", "cyrus", "cyrus-web"]) {
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
    for (const unit of UNITS) {
      expect(stat(root, `etc/systemd/system/${unit}`)).toEqual(owned(0, 0, "644"));
      expect(fs.readFileSync(path.join(root, "etc/systemd/system", unit), "utf8")).toBe(
        fs.readFileSync(path.join(projectRoot, "deploy/systemd", unit), "utf8"),
      );
    }
    expect(stat(root, "usr/local/lib/cyrus/nginx-module-check")).toEqual(owned(0, 0, "755"));
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

  test("run again, it changes nothing, and keeps what the settings files hold", () => {
    fs.writeFileSync(path.join(root, "srv/cyrus/shared/release.env"), "RELEASE_REPO=/srv/git/site.git\n");
    fs.writeFileSync(path.join(root, "etc/cyrus/enquiry.env"), "SMTP_URL=smtp://mail.example.com\n");
    const before = listing(root);
    const again = setup(copy, root, ["--tls-key", KEY]);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("changed:");
    expect(again.stdout).toMatch(/^setup: nothing to change$/m);
    expect(again.stdout).toContain("ok:      /srv/cyrus/shared/release.env (mode 600, content kept)");
    expect(listing(root)).toEqual(before);
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
    expect(fs.readFileSync(path.join(root, "etc/cyrus/enquiry.env"), "utf8")).toBe(
      "SMTP_URL=smtp://mail.example.com\n",
    );
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
      expect(linked.stderr).toContain("is not a regular file");
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
