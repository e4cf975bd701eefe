/**
 * The sandbox the new commit's code runs in: `npm ci` (its packages' install scripts), the content
 * check, the build, the site check, the rendering of its nginx configuration and `nginx -t` on it
 * (which loads the libraries a configuration names). The runner runs as
 * the release user, which must read the repository's token (shared/release.env) and the mirror
 * (shared/repo.git: every branch, the studio's drafts), and writes every release; code of a commit
 * that never goes live must do none of that. So each of those commands runs under bubblewrap
 * (Debian's `bubblewrap`, /usr/bin/bwrap), where the file system is:
 *
 *   /usr (and /bin, /lib… as the host has them), the few files of /etc that programs read (users,
 *   names, certificates), Node's own folder: read-only;
 *   the release folder (<root>/build while it is built): writable, at its own path;
 *   a private HOME and temporary folder (<root>/build-tmp, emptied by every release): writable;
 *   the packages its node_modules point to (shared/packages/<entry>, dependencies.ts): read-only;
 *   for `npm ci` alone, the store entry it fills and npm's cache (shared/npm-cache): writable;
 *   a /proc of its own, a minimal /dev, an empty /tmp, /sys/devices/system/cpu (read-only); no /run
 *   (no D-Bus: it cannot ask polkit to restart a unit), no /home, no /var, nothing else of the
 *   release root.
 *
 * and it has its own process ids (it cannot see or signal the service, nginx or the runner), no
 * capabilities, and no network but loopback of its own, except `npm ci`, which needs the package
 * registry (bubblewrap shares the network or not; it cannot limit it to one host), and `nginx -t`,
 * which binds the addresses the configuration listens on.
 *
 * Why bubblewrap and not a transient systemd unit (ProtectSystem=strict, ReadWritePaths=…): the runner
 * is an unprivileged user, which cannot start system units, and running it from a unit of its own
 * would need a polkit rule that lets the release user start any command as a unit. bubblewrap needs
 * no privilege: it uses the kernel's unprivileged user namespaces (Debian's default). Under systemd,
 * the release units must not set ProtectKernelTunables= or ProtectKernelLogs=: they mount over parts
 * of /proc, and the kernel then refuses the sandbox a /proc of its own (bubblewrap makes /proc/sys
 * read-only in its own).
 *
 * It fails closed: without bubblewrap, or where it cannot start, or when what it starts can still see
 * the release root's shared/, the release stops before anything is fetched (checkSandbox), with what
 * to do; nothing is ever built outside it.
 */
import fs from "node:fs";
import path from "node:path";
import { lastLines, run, StepError, type Outcome } from "./exec";
import { PACKAGE_DIRS, paths } from "./layout";

export const SANDBOX_STEP = "sandbox";
export const INSTALL_HINT = "apt-get install bubblewrap";

export interface Sandbox {
  /** The release folder: with `scratch`, the only place the command may write. */
  release: string;
  /** Its private HOME and temporary folder. */
  scratch: string;
  /** Folders it may read, at their own paths: the packages the release's node_modules point to. */
  readOnly?: string[];
  /** Folders it may write: [on the host, where it sees it]. npm ci's store entry, npm's cache. */
  writable?: Array<[string, string]>;
  /** The network (npm ci's registry); otherwise loopback only, of its own. */
  network?: boolean;
  /** Variables set inside, after the environment is cleaned (npm ci's cache). */
  setEnv?: Record<string, string>;
  /** The bubblewrap program: `bwrap` on PATH (tests name one that is not there). */
  bwrap?: string;
}

/** Folders of / that are links into /usr on a merged-/usr system (Debian 12 and 13), folders elsewhere. */
const SYSTEM_DIRS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/**
 * What programs read of /etc: the users (npm and Node ask who they run as), name resolution, TLS
 * certificates (npm's registry), the dynamic linker's cache, Debian's alternatives (links in
 * /usr/bin point there), the time zone, fonts (sharp draws SVG text), npm's global settings (a
 * registry mirror, a cafile). Nothing of the server's own settings (nginx's, the service's secrets).
 */
const ETC = [
  "passwd",
  "group",
  "nsswitch.conf",
  "hosts",
  "host.conf",
  "resolv.conf",
  "gai.conf",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "alternatives",
  "localtime",
  "timezone",
  "fonts",
  "mime.types",
  "npmrc",
];

const within = (dir: string, parent: string) => dir === parent || dir.startsWith(`${parent}/`);

/** The folder of the Node binary running the runner (read-only in the sandbox unless /usr has it). */
function nodeFolder(): string {
  return path.dirname(fs.realpathSync(process.execPath));
}

/** bubblewrap's arguments for a command run in `cwd` (inside the release folder) in `box`. */
export function sandboxArgs(box: Sandbox, cwd: string): string[] {
  const args = ["--die-with-parent", "--new-session", "--unshare-all"];
  if (box.network) args.push("--share-net");
  args.push("--ro-bind", "/usr", "/usr");
  for (const dir of SYSTEM_DIRS) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  for (const name of ETC) args.push("--ro-bind-try", `/etc/${name}`, `/etc/${name}`);
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  // How many processors there are (Gatsby asks lscpu, which reads it, to size its workers): no more of /sys.
  args.push("--ro-bind-try", "/sys/devices/system/cpu", "/sys/devices/system/cpu");
  const node = nodeFolder();
  if (within(box.release, node) || within(box.scratch, node))
    throw new StepError(
      SANDBOX_STEP,
      `Node's folder (${node}) holds the release folder: the sandbox would show it all`,
    );
  if (!within(node, "/usr")) args.push("--ro-bind", node, node);
  args.push("--bind", box.release, box.release, "--bind", box.scratch, box.scratch);
  for (const dir of box.readOnly ?? []) args.push("--ro-bind", dir, dir);
  for (const [from, to] of box.writable ?? []) args.push("--bind", from, to);
  args.push("--chdir", cwd);
  return args;
}

/**
 * The environment inside: the caller's, with HOME and the temporary folder the private ones (the
 * runner's HOME holds git's settings and an SSH key), and nothing pointing at the runner's own
 * settings or caches.
 */
export function sandboxEnv(box: Sandbox, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inside = Object.fromEntries(
    Object.entries(env).filter(([key]) => !/^(XDG_|npm_config_(cache|userconfig|prefix)$|SSH_AUTH_SOCK$)/i.test(key)),
  );
  return {
    ...inside,
    HOME: path.join(box.scratch, "home"),
    TMPDIR: path.join(box.scratch, "tmp"),
    XDG_CACHE_HOME: path.join(box.scratch, "home", ".cache"),
    XDG_CONFIG_HOME: path.join(box.scratch, "home", ".config"),
    ...box.setEnv,
  };
}

/** A fresh private HOME and temporary folder (the release user's alone). */
export function makeScratch(scratch: string): void {
  fs.rmSync(scratch, { recursive: true, force: true });
  for (const dir of [scratch, path.join(scratch, "home"), path.join(scratch, "tmp")])
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** `command` run in the sandbox (exec.ts's run: its output to the release's output and log). */
export function runSandboxed(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; quiet?: boolean; sandbox: Sandbox },
): Promise<Outcome> {
  const box = options.sandbox;
  return run(box.bwrap ?? "bwrap", [...sandboxArgs(box, options.cwd), "--", command, ...args], {
    cwd: options.cwd,
    env: sandboxEnv(box, options.env),
    quiet: options.quiet,
    shown: `${box.bwrap ?? "bwrap"} (${describe(box)}) -- ${[command, ...args].join(" ")}`,
  });
}

/** What the log says of a sandbox: what it may write and read of the server's folders, and its network. */
export function describe(box: Sandbox): string {
  const writes = [
    box.release,
    box.scratch,
    ...(box.writable ?? []).map(([from, to]) => (from === to ? to : `${from} at ${to}`)),
  ];
  const reads = box.readOnly ?? [];
  return [
    `sandbox: writes ${writes.join(", ")}`,
    ...(reads.length > 0 ? [`reads ${reads.join(", ")}`] : []),
    box.network ? "network" : "no network",
  ].join("; ");
}

/**
 * Before any work: bubblewrap is there, starts, and what it starts sees none of `hidden` (the
 * release root's shared/ and releases/). Throws a StepError (step "sandbox") saying what to do.
 */
export async function checkSandbox(scratch: string, hidden: string[], bwrap = "bwrap"): Promise<void> {
  makeScratch(scratch);
  const box: Sandbox = { release: scratch, scratch, bwrap };
  const probe = 'for f in "$@"; do if [ -e "$f" ]; then echo "sandbox: $f is visible"; exit 3; fi; done';
  const outcome = await run(bwrap, [...sandboxArgs(box, scratch), "--", "sh", "-c", probe, "sh", ...hidden], {
    env: sandboxEnv(box, process.env),
    quiet: true,
  });
  if (outcome.code === 0) return;
  if (outcome.code === 127 && /ENOENT/.test(outcome.output))
    throw new StepError(
      SANDBOX_STEP,
      `bubblewrap (${bwrap}) is not installed. The new commit's code (npm ci, the content check, the build) ` +
        `runs only in its sandbox, and no release is built without it. As root: ${INSTALL_HINT}`,
    );
  if (outcome.code === 3)
    throw new StepError(
      SANDBOX_STEP,
      `the build's sandbox (${bwrap}) does not hide the release root (${lastLines(outcome.output, 1)}): no release is built without it`,
    );
  throw new StepError(
    SANDBOX_STEP,
    `bubblewrap (${bwrap}) could not start the build's sandbox: ${lastLines(outcome.output, 5) || `exit code ${outcome.code}`}\n` +
      `It needs Debian's bubblewrap (${INSTALL_HINT}) and unprivileged user namespaces (Debian's default, ` +
      "kernel.unprivileged_userns_clone=1); under systemd, a unit without ProtectKernelTunables= and ProtectKernelLogs= " +
      "(they mount over parts of /proc, and the kernel then refuses the sandbox a /proc of its own). " +
      "No release is built without it.",
  );
}

/** The store entries (folders holding node_modules) that `folder`'s node_modules are links to, whatever they are. */
export function linkedEntries(folder: string): string[] {
  const entries: string[] = [];
  for (const pkg of PACKAGE_DIRS) {
    try {
      const modules = path.join(folder, pkg, "node_modules");
      entries.push(path.dirname(path.resolve(path.dirname(modules), fs.readlinkSync(modules))));
    } catch {
      // Not a link: no entry (a release made before the store has its own folder).
    }
  }
  return entries;
}

/** A store entry's name (dependencies.ts, storeEntry). */
const ENTRY_NAME = /^(site|admin)-[0-9a-f]{16}$/;

/**
 * What the sandbox of a step in release folder `dir` may read of the store: the complete entries of
 * root's store its node_modules link to, and nothing else. The links are the release folder's, which
 * the previous step (the commit's code) could rewrite: one to shared/ or another release must not
 * have the next sandbox show that folder.
 */
export function sandboxEntries(root: string, dir: string): string[] {
  const { packages } = paths(root);
  return linkedEntries(dir).filter(
    (entry) =>
      path.dirname(entry) === packages &&
      ENTRY_NAME.test(path.basename(entry)) &&
      fs.lstatSync(path.join(entry, "node_modules"), { throwIfNoEntry: false })?.isDirectory() === true,
  );
}

/** The sandbox of a step run in release folder `dir` of `root`: its own packages (store entries) read-only. */
export const sandboxFor = (root: string, dir: string): Sandbox => ({
  release: dir,
  scratch: paths(root).buildTmp,
  readOnly: sandboxEntries(root, dir),
});
