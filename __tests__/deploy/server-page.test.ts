/**
 * docs/server.md, the owner's page, run block by block in order, so that it cannot drift from the
 * scripts it drives. Every command line of its ```sh blocks must be one of the shapes below (COMMANDS),
 * each with what this test does for it: a line it does not know fails, so a step cannot be added
 * without being exercised here. It all happens as root in one temporary tree standing for the new
 * server's "/" (the scripts' --root; the set-up's --no-systemctl: systemd is not running here), with
 * the owner's computer a folder beside it, the git host a bare repository of the project as it stands
 * served over HTTP on loopback to whoever has the token (./support/git-http-host), and the SMTP
 * account a server on loopback.
 *
 * Run for real: root's clone at the page's tag and the set-up from it (again after the upgrade's fetch
 * and checkout: the new tag named, nothing to change); each settings file edited as its owner, with
 * what the prose after the block names filled in and each FILL IN line among those, then read back by
 * what reads it (the release's settings, the service's configuration, age for the backups' key);
 * age-keygen on the owner's computer; the first release as the release user, through the token, up to
 * the branch's own `npm run release` (npm a stand-in: the build, the switch and the live check are
 * release.test.ts's); `cyrus doctor` (systemd's answers a stand-in: each unit the set-up enabled
 * active), whose every PROBLEM must be one this test explains (no release live, no CA asked);
 * `cyrus enquiries …` and `cyrus release …`, which refuse here for want of a live release, and the
 * same words to the service's CLI of this checkout (the invitation printed and e-mailed); the backup
 * timer's run and the page's restore into an empty store, which brings back the person invited.
 * Checked for their shape only: apt-get (each package in Debian's index, every package a script tells
 * root to install in the page's list), NodeSource's lines (the network), systemctl (a unit the set-up
 * installed). The certificate from Let's Encrypt is a self-signed placeholder without systemd (against
 * a CA: certificates.test.ts).
 */
import { spawn, spawnSync, type SpawnOptions, type SpawnSyncOptions } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseEnvFile, readSettings } from "../../deploy/release/settings";
import { startSmtp, type SmtpSink } from "../support/smtp";
import { startGitHost, type GitHost } from "./support/git-http-host";
import { fillIn, fillInSettings, settingNames, shBlocks, words, type ShBlock } from "./support/page-commands";
import { TOKEN, USERNAME } from "./support/repository-token";
import { projectRoot } from "./support/stack";

jest.setTimeout(60_000);

const isRoot = process.getuid!() === 0;
const PAGE = path.join(projectRoot, "docs", "server.md");
const markdown = fs.readFileSync(PAGE, "utf8");
const blocks = shBlocks(markdown);

/** package.json's engines.node (">=22.13.0"): the Node the page has the owner install. */
const NODE_NEEDED = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(
  (JSON.parse(fs.readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { engines: { node: string } }).engines
    .node,
)!;

/** Packages the scripts need on the server, and why: the page's list must hold each. */
const NEEDED_PACKAGES: Record<string, string> = {
  git: "root's copy of the project and the release's mirror",
  openssl: "the certificates script's placeholder, doctor's look at the certificate",
  nginx: "cyrus-nginx.service",
  "libnginx-mod-http-brotli-static": "the release's nginx configuration (nginx-module-check)",
  polkitd: "the release reloads nginx through the polkit rule",
  sudo: "the page runs the release user's commands with sudo -u",
  bubblewrap: "the release's sandbox for the build",
  lego: "the certificate by ACME (set-up --domain)",
  age: "the encrypted backups (BACKUP_RECIPIENT)",
};
/**
 * Packages a script tells root to `apt-get install` that the page's list leaves out, and why.
 * nodejs: the page's own NodeSource block installs it.
 */
const NOT_IN_THE_LIST: Record<string, string> = {
  nodejs: "NodeSource's, installed by the page's Node.js block",
  "systemd-timesyncd":
    "doctor's advice when the clock is not synchronised; it conflicts with chrony and any other time daemon, " +
    "which keep the clock as well",
};
/** The service's store: its unit's ENQUIRY_DATA_DIR. */
const DATA_DIR = /^Environment=ENQUIRY_DATA_DIR=(\S+)$/m.exec(
  fs.readFileSync(path.join(projectRoot, "deploy/systemd/cyrus-enquiry.service"), "utf8"),
)![1]!;
/** Settings the prose names that the owner may leave as the example has them. */
const KEPT_AS_THEY_ARE = new Set(["BACKUP_INTERVAL", "BACKUP_KEEP"]);
/**
 * The service's CLI from this checkout (the code a release runs), run as root: what root's scripts
 * run as the service's user in the live release (their --enquiries, with --root: the tests'), and what
 * `cyrus enquiries` would run there. tsx by its path: it runs from root's home.
 */
const ENQUIRIES = [
  process.execPath,
  "--import",
  pathToFileURL(path.join(projectRoot, "node_modules/tsx/dist/loader.mjs")).href,
  path.join(projectRoot, "src/site-service/bin/enquiries.ts"),
];

/** One shape of command line the page may hold, and what the test does for it. */
interface Command {
  shape: RegExp;
  run: (m: RegExpExecArray, block: ShBlock, line: string) => void | Promise<void>;
}

// --- The server, the owner's computer, the git host ----------------------------------------------

let base = "";
/** The new server's "/". */
let root = "";
/** The owner's own computer, where the backups' key stays. */
let owner = "";
/** Root's home (700, as /root): where the page's commands run, sudo's included. */
let rootHome = "";
/** The git host's repository (a bare one), served over HTTP on loopback to whoever has the token. */
let host = "";
let gitHost: GitHost | undefined;
/** Its address with the read-only token, as RELEASE_REPO holds it (http: the stand-in has no TLS). */
let hostUrl = "";
/** The SMTP account the owner puts in SMTP_URL: a server on loopback that keeps what it receives. */
let smtp: SmtpSink | undefined;
const at = (p: string) => path.join(root, p);

/** What the steps found, for the steps after them. */
const state = {
  keyring: "",
  nodeSourceList: "",
  copy: "",
  tag: "",
  setupRuns: 0,
  setupOutput: "",
  domain: "",
  identityFile: "",
  publicKey: "",
  settings: {} as Record<string, Record<string, string>>,
  cyrusHelp: undefined as string | undefined,
};

const GIT_ENV = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
const ROOT_ENV = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  LC_ALL: "C",
  GIT_TERMINAL_PROMPT: "0",
  ...GIT_ENV,
};
type Result = { status: number | null; stdout: string; stderr: string };

/** A command as root runs it in its shell (umask 022, in its home). */
function asRoot(command: string, args: string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync("sh", ["-c", 'umask 022 && exec "$@"', "sh", command, ...args], {
    cwd: rootHome,
    encoding: "utf8",
    ...options,
    env: { ...ROOT_ENV, HOME: rootHome, ...options.env },
  });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** A command as one of the server's users (sudo -u NAME): its ids from the server's /etc/passwd. */
function asUser(name: string, command: string[], options: SpawnSyncOptions = {}) {
  const { uid, gid } = ids(name);
  const result = spawnSync("setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--", ...command], {
    cwd: rootHome,
    encoding: "utf8",
    ...options,
    env: { ...ROOT_ENV, ...options.env },
  });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/**
 * asRoot for what talks to the git host, which answers from this process: spawnSync would hold its
 * event loop, and the host would never answer.
 */
function asRootNow(command: string, args: string[], options: SpawnOptions & { input?: string } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", 'umask 022 && exec "$@"', "sh", command, ...args], {
      cwd: rootHome,
      ...options,
      env: { ...ROOT_ENV, HOME: rootHome, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin!.end(options.input ?? "");
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function must(result: Result, what: string): string {
  if (result.status !== 0) throw new Error(`${what}: exit ${result.status}\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

const hostGit = (...args: string[]) =>
  must(
    asRoot("git", ["-c", "user.name=Cyrus", "-c", "user.email=dev@example.com", "--git-dir", host, ...args]),
    `git ${args.join(" ")}`,
  ).trim();

function ids(name: string): { uid: number; gid: number } {
  const user = fs
    .readFileSync(at("etc/passwd"), "utf8")
    .split("\n")
    .find((line) => line.startsWith(`${name}:`))
    ?.split(":");
  if (!user) throw new Error(`no user ${name} on the server (the set-up makes it)`);
  return { uid: Number(user[2]), gid: Number(user[3]) };
}

const owned = (file: string) => {
  const st = fs.lstatSync(at(file));
  return { mode: (st.mode & 0o7777).toString(8), uid: st.uid, gid: st.gid };
};

/** A stand-in program on the server (root's, 755). */
function standIn(file: string, script: string) {
  fs.mkdirSync(path.dirname(at(file)), { recursive: true, mode: 0o755 });
  fs.writeFileSync(at(file), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  fs.chmodSync(at(file), 0o755);
}

beforeAll(async () => {
  if (!isRoot) return;
  // Below /var/lib (root's, 755): the set-up refuses a copy any folder above which others may write (/tmp).
  base = fs.mkdtempSync(path.join("/var/lib", "cyrus-server-page-"));
  fs.chmodSync(base, 0o755);
  root = path.join(base, "server");
  owner = path.join(base, "owners-computer");
  rootHome = path.join(base, "root");
  fs.mkdirSync(root, { mode: 0o755 });
  fs.mkdirSync(owner, { mode: 0o700 });
  fs.mkdirSync(rootHome, { mode: 0o700 });
  // A bare Debian server: its users, nothing of the site's.
  fs.mkdirSync(at("etc"), { mode: 0o755 });
  for (const file of ["passwd", "group", "shadow", "gshadow"]) fs.copyFileSync(`/etc/${file}`, at(`etc/${file}`));
  fs.mkdirSync(at("etc/apt/sources.list.d"), { recursive: true, mode: 0o755 });

  // The git host: the project as it stands (its working tree, .gitignore's files left out, as the
  // other deploy tests take it), one commit on main, tagged when the page clones or checks out a tag.
  host = path.join(base, "git-host", "cyrus-website.git");
  fs.mkdirSync(path.dirname(host), { mode: 0o755 });
  must(asRoot("git", ["init", "--quiet", "--bare", "--initial-branch=main", host]), "git init");
  const index = { GIT_DIR: host, GIT_WORK_TREE: projectRoot, GIT_INDEX_FILE: path.join(base, "index") };
  must(asRoot("git", ["add", "--all"], { env: index }), "git add");
  const tree = must(asRoot("git", ["write-tree"], { env: index }), "git write-tree").trim();
  fs.rmSync(path.join(base, "index"));
  const commit = hostGit("commit-tree", tree, "-m", "The project as it stands");
  hostGit("update-ref", "refs/heads/main", commit);
  gitHost = await startGitHost({ projectRoot: path.dirname(host), username: USERNAME, token: TOKEN });
  hostUrl = `${gitHost.origin.replace("//", `//${USERNAME}:${TOKEN}@`)}/${path.basename(host)}`;
  smtp = await startSmtp();
});

afterAll(async () => {
  await gitHost?.close();
  await smtp?.stop();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** The tag a release of the project carries: made on the host the first time the page asks for it. */
function publish(tag: string): string {
  const known = spawnSync("git", ["--git-dir", host, "rev-parse", "--verify", "--quiet", `${tag}^{commit}`], {
    encoding: "utf8",
    env: { ...process.env, ...GIT_ENV },
  });
  if (known.status === 0) return known.stdout.trim();
  // Every tag after the first: a new commit on main (the same files: nothing for the set-up to change).
  const tagged = hostGit("tag", "--list", "v*");
  if (tagged !== "") {
    const main = hostGit("rev-parse", "main");
    const next = hostGit("commit-tree", `${main}^{tree}`, "-p", main, "-m", `Release ${tag}`);
    hostGit("update-ref", "refs/heads/main", next);
  }
  hostGit("tag", "-a", "-m", `Release ${tag}`, tag, "main");
  return hostGit("rev-parse", `${tag}^{commit}`);
}

/** Every tag the page checks out later: published before the fetch that brings it. */
const laterTags = blocks.flatMap((block) =>
  block.lines.flatMap((line) => /^git -C \S+ checkout (v\d+\.\d+\.\d+)$/.exec(line)?.[1] ?? []),
);

// --- The steps ----------------------------------------------------------------------------------

function packages(m: RegExpExecArray) {
  const listed = m[1]!.split(" ");
  for (const [name, why] of Object.entries(NEEDED_PACKAGES))
    if (!listed.includes(name)) throw new Error(`docs/server.md's packages leave out ${name} (${why})`);
  // What the scripts tell root to install when it is missing.
  const told = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(projectRoot, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else
        for (const hint of fs
          .readFileSync(path.join(projectRoot, file), "utf8")
          .matchAll(/apt-get install (?:-y )?([a-z0-9][a-z0-9.+-]+)/g))
          told.add(hint[1]!);
    }
  };
  walk("deploy");
  expect([...told].filter((name) => !listed.includes(name) && !(name in NOT_IN_THE_LIST))).toEqual([]);
  // Each one in Debian's index (this machine's: Debian 12), when its lists are there.
  const lists = fs.existsSync("/var/lib/apt/lists")
    ? fs.readdirSync("/var/lib/apt/lists").filter((f) => f.includes("_Packages"))
    : [];
  if (lists.length === 0) {
    console.warn(
      "server-page.test.ts: no apt lists on this machine (apt-get update): the packages' names not looked up",
    );
  } else {
    // One look for them all (each look reads the lists again): the names it shows.
    const shown = spawnSync("apt-cache", ["show", "--no-all-versions", ...listed], { encoding: "utf8" }).stdout;
    const found = new Set([...shown.matchAll(/^Package: (\S+)$/gm)].map((m) => m[1]));
    expect(listed.filter((name) => !found.has(name))).toEqual([]);
  }
  // What the set-up looks for on the server, as the packages install it: lego (a stand-in: without
  // systemd the set-up asks no CA) and bubblewrap (the real one: the first release runs npm ci in it).
  if (listed.includes("lego")) standIn("/usr/bin/lego", "exit 1");
  if (listed.includes("bubblewrap")) standIn("/usr/bin/bwrap", 'exec /usr/bin/bwrap "$@"');
}

function nodeFromNodeSource() {
  if (!state.nodeSourceList)
    throw new Error("apt-get install -y nodejs before NodeSource's list: Debian's Node is too old");
  // The Node the tests run (a stand-in for NodeSource's: the set-up runs it for its version), and
  // npm beside it, a stand-in that says what it was asked (the first release runs it).
  standIn("/usr/bin/node", `exec ${process.execPath} "$@"`);
  standIn(
    "/usr/bin/npm",
    [
      'if [ -f package.json ] && [ -x deploy/server/setup ]; then files="the project\'s files"; else files="not the project"; fi',
      'echo "npm stand-in: $* (in $PWD; RELEASE_ROOT=${RELEASE_ROOT:-}; $files)"',
    ].join("\n"),
  );
}

function nodeVersion(_m: RegExpExecArray, block: ShBlock) {
  const version = /^v(\d+)\.(\d+)\.(\d+)$/.exec(process.version)!;
  const newer = (a: string[], b: string[]) => {
    for (let i = 1; i <= 3; i += 1) if (Number(a[i]) !== Number(b[i])) return Number(a[i]) > Number(b[i]);
    return true;
  };
  expect(newer([...version], [...NODE_NEEDED])).toBe(true);
  const needed = `v${NODE_NEEDED.slice(1).join(".")}`;
  expect(block.after).toContain(`\`node --version\` prints \`${needed}\` or later`);
  expect(markdown).toContain(`Node.js ${NODE_NEEDED[1]}.${NODE_NEEDED[2]} or later`);
}

async function clone(m: RegExpExecArray) {
  const [, tag, url, copy] = m;
  expect(url).toMatch(/^https:\/\//);
  state.tag = tag!;
  state.copy = copy!;
  const commit = publish(tag!);
  fs.mkdirSync(path.dirname(at(copy!)), { recursive: true, mode: 0o755 });
  // The host's address with the token, as the owner of a private repository gives it (at git's
  // prompt, or in the URL: the set-up makes the copy's .git root's alone for that).
  must(await asRootNow("git", ["clone", "--quiet", "--branch", tag!, hostUrl, at(copy!)]), "git clone");
  expect(owned(copy!)).toEqual({ mode: "755", uid: 0, gid: 0 });
  expect(must(asRoot("git", ["-C", at(copy!), "rev-parse", "HEAD"]), "rev-parse").trim()).toBe(commit);
}

function setup(m: RegExpExecArray, block: ShBlock) {
  expect(m[1]).toBe(state.copy);
  const options = words(m[2]!.trim());
  const domain = options.indexOf("--domain");
  if (domain >= 0) state.domain = options[domain + 1]!;
  const copy = at(state.copy);
  const result = asRoot(path.join(copy, "deploy/server/setup"), [...options, "--root", root, "--no-systemctl"]);
  state.setupRuns += 1;
  state.setupOutput = result.stdout;
  // The owner's command as this run installed it.
  state.cyrusHelp = undefined;
  expect(result.stderr).not.toContain("PROBLEM");
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
  const lines = result.stdout.trimEnd().split("\n");
  const commit = must(asRoot("git", ["-C", copy, "rev-parse", "HEAD"]), "rev-parse").trim();
  // "its first line names the release tag it ran from"
  expect(lines[0]).toBe(`setup: running from ${state.tag} (commit ${commit.slice(0, 12)}, in ${copy})`);
  if (state.setupRuns === 1) {
    // "It ends with `setup: N change(s)` and no `PROBLEM` line"
    expect(block.after).toContain("It ends with `setup: N change(s)` and no `PROBLEM` line");
    expect(lines[lines.length - 1]).toMatch(/^setup: \d+ change\(s\)$/);
  } else {
    // After an upgrade whose copy changed nothing the set-up installs: nothing to change.
    expect(lines[lines.length - 1]).toBe("setup: nothing to change");
  }
  if (state.domain) {
    // Without systemd its certificates script writes its settings and a placeholder (obtaining the
    // certificate from a CA: certificates.test.ts, against Pebble).
    expect(fs.readFileSync(at("etc/cyrus/certificates.env"), "utf8").split("\n")).toContain(`DOMAIN=${state.domain}`);
    expect(result.stdout).toContain(`TLS certificate for ${state.domain} by ACME: a self-signed placeholder for now`);
  }
}

/** What the owner puts in a setting the prose names. */
function valueOf(name: string, example: string): string | undefined {
  const site = `https://${state.domain}`;
  switch (name) {
    case "RELEASE_REPO":
      return hostUrl;
    case "SITE_URL":
      return site;
    case "RELEASE_NGINX_ARGS": {
      // The TLS line the example shows, with the site's name in it.
      const shown = /^#\s+RELEASE_NGINX_ARGS=(.*--tls-cert.*)$/m.exec(example);
      if (!shown) throw new Error("release.env's example shows no TLS RELEASE_NGINX_ARGS line");
      return shown[1]!.replaceAll("www.example.com", state.domain);
    }
    case "SMTP_URL":
      return `smtp://127.0.0.1:${smtp!.port}`;
    case "ENQUIRY_TO":
      return "office@example.com";
    case "BACKUP_DIR":
      return "/mnt/backup/cyrus";
    case "BACKUP_RECIPIENT":
      if (!state.publicKey) throw new Error("BACKUP_RECIPIENT is to be age-keygen's public key, but it ran after");
      return state.publicKey;
    default:
      return undefined;
  }
}

/** The settings the set-up filled in a file it made from an example (the lines that differ from it). */
function setBySetup(file: string, example: string, text: string): string[] {
  const was = example.split("\n");
  const now = text.split("\n");
  expect(now.length).toBe(was.length);
  return now.flatMap((line, i) => {
    if (line === was[i]) return [];
    const key = /^([A-Z][A-Z0-9_]*)=\S+$/.exec(line)?.[1];
    expect({ file, line: was[i], key }).toEqual({
      file,
      line: expect.stringMatching(new RegExp(`^#? ?${key}=$`)),
      key,
    });
    expect(state.setupOutput).toContain(`${key} set in ${file}`);
    return [key!];
  });
}

async function edit(m: RegExpExecArray, block: ShBlock, user?: string) {
  const file = m[m.length - 1]!;
  const example = fs.readFileSync(at(`${state.copy}/deploy/examples/${path.basename(file)}`), "utf8");
  // Made by the set-up from the copy's example, and its editor's alone.
  const by = user ? ids(user) : { uid: 0, gid: 0 };
  expect({ file, ...owned(file) }).toEqual({ file, mode: "600", ...by });
  const text = fs.readFileSync(at(file), "utf8");
  // The example as it is, but for settings the set-up filled in itself, and said so.
  const bySetup = setBySetup(file, example, text);
  // The prose after the block names what to fill in: each is there, and so is every FILL IN line's.
  const named = settingNames(block.after);
  expect(named.filter((name) => !new RegExp(`^#?\\s?${name}=`, "m").test(text))).toEqual([]);
  expect(fillInSettings(example).filter((name) => !named.includes(name))).toEqual([]);
  // "Uncomment" would be wrong for a setting the file also sets below its example: the last line wins.
  for (const uncomment of block.after.matchAll(/uncomment[^.`]*`([A-Z][A-Z0-9_]+)`/gi))
    if (new RegExp(`^#.*\\b${uncomment[1]}=[\\s\\S]*^${uncomment[1]}=`, "m").test(text))
      throw new Error(
        `the prose says to uncomment ${uncomment[1]} in ${file}, whose ${uncomment[1]}= line below it would still win`,
      );
  let filled = text;
  for (const name of named) {
    const value = valueOf(name, text);
    if (value !== undefined) filled = fillIn(filled, name, value);
    else if (!KEPT_AS_THEY_ARE.has(name) && !bySetup.includes(name))
      throw new Error(`docs/server.md names ${name} for ${file}, and this test does not know what an owner puts there`);
  }
  // Written in place, as nano does, by the user the page runs it as.
  if (user) must(asUser(user, ["sh", "-c", 'cat > "$1"', "sh", at(file)], { input: filled }), `editing ${file}`);
  else fs.writeFileSync(at(file), filled);
  expect(owned(file)).toEqual({ mode: "600", ...by });
  state.settings[path.basename(file)] = parseEnvFile(filled);
  if (path.basename(file) === "enquiry.env") {
    // The tests': the unit's ENQUIRY_DATA_DIR (its StateDirectory, made by systemd), under the
    // server's root, where root's scripts with --root take it as the settings write it.
    fs.mkdirSync(at(DATA_DIR), { recursive: true, mode: 0o700 });
    fs.appendFileSync(
      at(file),
      `\n# The tests': the unit's folder, in the server's --root\nENQUIRY_DATA_DIR=${at(DATA_DIR)}\n`,
    );
  }
  // The backup disk or share, mounted.
  if (state.settings[path.basename(file)]!.BACKUP_DIR)
    fs.mkdirSync(at(path.dirname(state.settings[path.basename(file)]!.BACKUP_DIR!)), { recursive: true, mode: 0o755 });
  await check(path.basename(file), named);
}

/** A settings file as filled in, read by what reads it on the server. */
async function check(name: string, named: string[]) {
  const site = `https://${state.domain}`;
  if (name === "release.env") {
    const settings = readSettings({ RELEASE_ROOT: at("/srv/cyrus") });
    expect(settings.repo.url).toBe(`${gitHost!.origin}/${path.basename(host)}`);
    expect(settings.liveUrl).toBe(site);
    const args = settings.nginxArgs.join(" ");
    expect(args).toContain(`--server-name ${state.domain}`);
    expect(args).toContain("--tls-cert /etc/cyrus/tls/fullchain.pem --tls-key /etc/cyrus/tls/privkey.pem");
  } else if (name === "enquiry.env") {
    // The service's CLI takes them: it e-mails the operator (ENQUIRY_TO) through SMTP_URL, as
    // cyrus-doctor.timer has it do with doctor's lines (SITE_URL: the invitation's link, below).
    const sent = smtp!.messages.length;
    const notice = await enquiriesCli(["notify-operator", "--subject", "doctor: 1 problem"], "PROBLEM: a test\n");
    expect({ status: notice.status, stderr: notice.stderr }).toEqual({ status: 0, stderr: "" });
    expect(smtp!.messages.slice(sent).map((message) => message.rcptTo)).toEqual([["office@example.com"]]);
    // The set-up's key, which the page has the owner keep a copy of.
    expect(named).toContain("ENQUIRY_ERASURE_KEY");
    expect(state.settings[name]!.ENQUIRY_ERASURE_KEY).toMatch(/^\S{32,}$/);
  } else if (name === "backup.env") {
    const settings = state.settings[name]!;
    expect(settings.BACKUP_DIR).toMatch(/^\/./);
    // The public key age-keygen printed encrypts what the key kept on the owner's computer opens.
    const sealed = spawnSync("age", ["--encrypt", "--recipient", settings.BACKUP_RECIPIENT!], { input: "a backup" });
    expect(sealed.status).toBe(0);
    const opened = spawnSync("age", ["--decrypt", "--identity", path.join(owner, state.identityFile)], {
      input: sealed.stdout,
      encoding: "utf8",
    });
    expect(opened.stdout).toBe("a backup");
  } else throw new Error(`docs/server.md edits ${name}, which this test does not read back`);
}

async function firstRelease(m: RegExpExecArray) {
  expect(m[1]).toBe("cyrus-release");
  expect(m[2]).toBe(state.copy);
  const release = ids("cyrus-release");
  const releaseRoot = at("/srv/cyrus");
  // As sudo -u cyrus-release leaves it: its home (the release root), sudo's PATH on the server (its
  // npm the stand-in), in root's home.
  const script = at(`${state.copy}/deploy/release/first-release`);
  const asRelease = [`--reuid=${release.uid}`, `--regid=${release.gid}`, "--clear-groups", "--"];
  const result = await asRootNow("setpriv", [...asRelease, script, "--root", releaseRoot], {
    env: { PATH: `${at("/usr/local/bin")}:${at("/usr/bin")}:/usr/local/bin:/usr/bin:/bin`, HOME: releaseRoot },
  });
  if (result.status !== 0) throw new Error(`first-release: exit ${result.status}\n${result.stdout}${result.stderr}`);
  const mirror = path.join(releaseRoot, "shared/repo.git");
  const commit = hostGit("rev-parse", "main");
  const bootstrap = /^first-release: the files of HEAD \([0-9a-f]{12}\) in (\S+)$/m.exec(result.stdout)?.[1];
  expect(result.stdout).toContain(`first-release: fetching the repository into ${mirror}\n`);
  expect(bootstrap).toMatch(new RegExp(`^${releaseRoot}/bootstrap\\.[A-Za-z0-9]{6}$`));
  // The branch's own packages and its `npm run release` (the build, the switch and the live check of
  // a real release: release.test.ts), in its files.
  const site = `${bootstrap}/site; RELEASE_ROOT=`;
  expect(result.stdout).toContain(`npm stand-in: ci --no-audit --no-fund (in ${site}; the project's files)\n`);
  expect(result.stdout).toContain(
    `npm stand-in: run --silent release -- --commit ${commit} (in ${site}${releaseRoot}; the project's files)\n`,
  );
  expect(result.stdout).toContain("first-release: the first release is live; the bootstrap folder is removed\n");
  expect(fs.existsSync(bootstrap!)).toBe(false);
  expect(owned("/srv/cyrus/shared/repo.git")).toEqual({ mode: "700", ...release });
}

/**
 * The owner's command as the set-up installed it: there, root's, and `cyrus help` lists what the page
 * asks of it (the command, and each of its words the line gives: invite, restore, --list, --name …).
 */
function cyrusInstalled(line: string) {
  const [, subcommand, ...rest] = words(line);
  const command = at("/usr/local/sbin/cyrus");
  if (!fs.existsSync(command))
    throw new Error(
      `docs/server.md runs \`${line}\`, but the set-up did not install /usr/local/sbin/cyrus (deploy/server/cyrus): not run`,
    );
  expect(owned("/usr/local/sbin/cyrus")).toEqual({ mode: "755", uid: 0, gid: 0 });
  state.cyrusHelp ??= must(asRoot(command, ["help"]), "cyrus help");
  const help = state.cyrusHelp;
  expect({ line, listed: new RegExp(`^\\s*cyrus ${subcommand}\\b`, "m").test(help) }).toEqual({ line, listed: true });
  const named = rest.filter((word, i) => word.startsWith("--") || (i === 0 && /^[a-z-]+$/.test(word)));
  expect({ line, missing: named.filter((word) => !help.includes(word)) }).toEqual({ line, missing: [] });
}

/** `cyrus …` as root runs it in its home, on the server (its --root, before the command: the tests'). */
function runCyrus(args: string[]) {
  return asRootNow(at("/usr/local/sbin/cyrus"), ["--root", root, ...args]);
}

/**
 * The service's CLI from this checkout with the service's settings as the owner wrote them (read as
 * its unit reads them), as root: what `cyrus enquiries` runs in the live release as cyrus.
 */
function enquiriesCli(args: string[], input = "") {
  const settings = parseEnvFile(fs.readFileSync(at("/etc/cyrus/enquiry.env"), "utf8"));
  return asRootNow(ENQUIRIES[0]!, [...ENQUIRIES.slice(1), ...args], {
    env: { ...settings, NODE_ENV: "production", TSX_DISABLE_CACHE: "1" },
    input,
  });
}

/** No release is live here (its build is release.test.ts's): `cyrus` gets as far as saying so. */
async function noReleaseLive(args: string[]) {
  const result = await runCyrus(args);
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: "" });
  expect(result.stderr).toMatch(/^cyrus: no release is live \(\/srv\/cyrus\/current\/\S+ is not there for [\w-]+\): /);
}

/**
 * What doctor may find wrong on this server and why: no release is live (its build is
 * release.test.ts's), no CA was asked (certificates.test.ts's), the service has not made its store
 * (it makes it as it starts), the backup timer has not run yet. Anything else is the page's steps
 * leaving something undone.
 */
const DOCTOR_HERE = [
  "nginx: no release is live",
  "live: no release is live",
  "TLS certificate: the self-signed placeholder",
  "the store: no store at",
  "backups: none made yet",
  "the newest backup: none in",
  "free disk, the backups' folder",
];

async function doctor(_m: RegExpExecArray, _block: ShBlock, line: string) {
  cyrusInstalled(line);
  // systemd as at boot: a unit the set-up enabled is active; the clock synchronised (this machine's).
  const systemctl = path.join(base, "systemctl");
  fs.writeFileSync(
    systemctl,
    `#!/bin/sh\n# is-active UNIT\nif ls ${at("/etc/systemd/system")}/*.wants/"$2" >/dev/null 2>&1; then echo active; else echo inactive; exit 3; fi\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(base, "timedatectl"), "#!/bin/sh\necho yes\n", { mode: 0o755 });
  const result = await runCyrus([
    "doctor",
    ...["--systemctl", systemctl, "--timedatectl", path.join(base, "timedatectl")],
    ...["--enquiries", ENQUIRIES.join(" ")],
  ]);
  const lines = result.stdout.trimEnd().split("\n");
  // One line for each part, each PROBLEM with what to do.
  expect(lines.filter((each) => !/^(ok: {6}|skipped: |PROBLEM: .+ — .+)/.test(each))).toEqual([]);
  expect(lines.filter((each) => each.startsWith("ok:")).length).toBeGreaterThan(5);
  const problems = lines.filter((each) => each.startsWith("PROBLEM: "));
  expect(problems.filter((each) => !DOCTOR_HERE.some((why) => each.startsWith(`PROBLEM: ${why}`)))).toEqual([]);
  expect({ status: result.status, stderr: result.stderr }).toEqual({
    status: problems.length > 0 ? 1 : 0,
    stderr: problems.length > 0 ? `doctor: ${problems.length} problem(s) (above)\n` : "",
  });
}

async function enquiries(m: RegExpExecArray, _block: ShBlock, line: string) {
  cyrusInstalled(line);
  const args = words(m[1]!);
  await noReleaseLive(["enquiries", ...args]);
  // The same words to the service's CLI (the code a release runs), with the owner's settings.
  const sent = smtp!.messages.length;
  const result = await enquiriesCli(args);
  expect({ line, status: result.status, stderr: result.stderr }).toEqual({ line, status: 0, stderr: "" });
  if (args[0] === "invite") {
    // "`invite` prints a one-time link (and e-mails it)", to the inbox at the site's address.
    const link = new RegExp(`https://${state.domain.replaceAll(".", "\\.")}/inbox/\\S+`).exec(result.stdout)?.[0];
    expect(link).toBeDefined();
    const mail = smtp!.messages.slice(sent);
    expect(mail.map((message) => message.rcptTo)).toEqual([[args[1]]]);
    expect(mail[0]!.raw.replace(/=\r?\n/g, "")).toContain(link!.slice(0, 40));
  }
}

async function releaseCommand(m: RegExpExecArray, _block: ShBlock, line: string) {
  cyrusInstalled(line);
  await noReleaseLive(["release", ...words(m[1] ?? "")]);
}

async function restore(m: RegExpExecArray, _block: ShBlock, line: string) {
  cyrusInstalled(line);
  const [, file, identity] = m;
  // A backup as deploy/server/backup names it, in BACKUP_DIR, opened with the key age-keygen wrote.
  const named = /^NAME_RE='(.+)'$/m.exec(fs.readFileSync(path.join(projectRoot, "deploy/server/backup"), "utf8"))!;
  expect(path.basename(file!)).toMatch(new RegExp(named[1]!));
  expect(file).toMatch(/\.age$/);
  expect(identity).toBe(state.identityFile);
  const backupDir = state.settings["backup.env"]!.BACKUP_DIR!;
  expect(path.dirname(file!)).toBe(backupDir);
  // The old server's backups: the timer's run (now, not when due), of a store that holds the person
  // invited above.
  const made = await runCyrus(["backup", "--enquiries", ENQUIRIES.join(" "), "run", "--force"]);
  if (made.status !== 0) throw new Error(`cyrus backup run: exit ${made.status}\n${made.stdout}${made.stderr}`);
  // The CLI's own line on its stderr (its stdout is the backup), and no warning (the erasure key set).
  expect(made.stderr).not.toMatch(/warning|refused|error/i);
  const backups = fs.readdirSync(at(backupDir)).filter((name) => new RegExp(named[1]!).test(name));
  expect(backups).toEqual([expect.stringMatching(/\.sqlite\.age$/)]);
  expect(fs.existsSync(at(`${backupDir}/erasures.log`))).toBe(true);
  // The new server: set up as above, its store empty (the service stopped: the line above); the
  // backup disk mounted at BACKUP_DIR, the key copied to root's home.
  fs.rmSync(at(DATA_DIR), { recursive: true });
  fs.mkdirSync(at(DATA_DIR), { mode: 0o700 });
  fs.copyFileSync(path.join(owner, state.identityFile), path.join(rootHome, identity!));
  const restored = await runCyrus([
    ...["backup", "--enquiries", ENQUIRIES.join(" ")],
    ...["restore", at(`${backupDir}/${backups[0]}`), "--identity", identity!],
  ]);
  if (restored.status !== 0) throw new Error(`${line}: exit ${restored.status}\n${restored.stdout}${restored.stderr}`);
  expect(restored.stdout).toContain(
    `backup: restoring ${at(`${backupDir}/${backups[0]}`)} (age) into the sqlite store\n`,
  );
  // What the backup held is back: the person invited.
  const people = await enquiriesCli(["people"]);
  expect({ status: people.status, stderr: people.stderr }).toEqual({ status: 0, stderr: "" });
  expect(people.stdout).toContain("ana@example.com");
}

function unitInstalled(unit: string) {
  const name = unit.includes(".") ? unit : `${unit}.service`;
  if (!fs.existsSync(at(`/etc/systemd/system/${name}`)))
    throw new Error(`docs/server.md names ${unit}, which the set-up did not install in /etc/systemd/system`);
}

const COMMANDS: Command[] = [
  // apt: not run here (no network but Debian's, and this machine is not the server).
  { shape: /^apt-get update$/, run: () => undefined },
  { shape: /^apt-get install -y (?!nodejs$)((?:[a-z0-9][a-z0-9.+-]*)(?: [a-z0-9][a-z0-9.+-]*)*)$/, run: packages },
  // NodeSource's repository: the network; its lines' shape, the keyring one line writes the other's.
  {
    shape: /^install -d -m 755 (\/etc\/apt\/keyrings)$/,
    run: (m) => must(asRoot("install", ["-d", "-m", "755", at(m[1]!)]), "install -d"),
  },
  {
    shape: /^curl -fsSL (https:\/\/deb\.nodesource\.com\/\S+) \| gpg --dearmor -o (\/etc\/apt\/keyrings\/\S+\.gpg)$/,
    run: (m) => {
      expect(fs.statSync(at(path.dirname(m[2]!))).isDirectory()).toBe(true);
      state.keyring = m[2]!;
    },
  },
  {
    shape:
      /^echo "(deb \[signed-by=(\S+)\] https:\/\/deb\.nodesource\.com\/node_(\d+)\.x nodistro main)" > (\/etc\/apt\/sources\.list\.d\/\S+\.list)$/,
    run: (m) => {
      expect({ signedBy: m[2], major: m[3] }).toEqual({ signedBy: state.keyring, major: NODE_NEEDED[1] });
      fs.writeFileSync(at(m[4]!), `${m[1]}\n`);
      state.nodeSourceList = m[4]!;
    },
  },
  { shape: /^apt-get install -y nodejs$/, run: nodeFromNodeSource },
  { shape: /^node --version$/, run: nodeVersion },
  // Root's copy of the project and the set-up.
  { shape: /^git clone --branch (v\d+\.\d+\.\d+) (\S+) (\/\S+)$/, run: clone },
  { shape: /^(\/\S+)\/deploy\/server\/setup((?: \S+)*)$/, run: setup },
  {
    shape: /^git -C (\/\S+) fetch --tags$/,
    run: async (m) => {
      expect(m[1]).toBe(state.copy);
      for (const tag of laterTags) publish(tag);
      must(await asRootNow("git", ["-C", at(m[1]!), "fetch", "--quiet", "--tags"]), "git fetch");
    },
  },
  {
    shape: /^git -C (\/\S+) checkout (v\d+\.\d+\.\d+)$/,
    run: (m) => {
      expect(m[1]).toBe(state.copy);
      must(
        asRoot("git", ["-C", at(m[1]!), "-c", "advice.detachedHead=false", "checkout", "--quiet", m[2]!]),
        "checkout",
      );
      expect(must(asRoot("git", ["-C", at(m[1]!), "rev-parse", "HEAD"]), "rev-parse").trim()).toBe(publish(m[2]!));
      state.tag = m[2]!;
    },
  },
  // The settings.
  { shape: /^sudo -u (cyrus-release) nano (\/\S+)$/, run: (m, block) => edit(m, block, m[1]!) },
  { shape: /^nano (\/etc\/cyrus\/\S+)$/, run: (m, block) => edit(m, block) },
  {
    shape: /^age-keygen -o (\S+)$/,
    run: (m, block) => {
      // On the owner's computer, not on the server.
      expect(block.after).toMatch(/Run `age-keygen` on your own computer/);
      const result = spawnSync("age-keygen", ["-o", m[1]!], { cwd: owner, encoding: "utf8" });
      expect(result.status).toBe(0);
      state.identityFile = m[1]!;
      state.publicKey = /^Public key: (age1[0-9a-z]+)$/m.exec(result.stderr)![1]!;
      expect(block.after).toContain("`public key: age1…`");
      expect(fs.readFileSync(path.join(owner, m[1]!), "utf8")).toContain(`# public key: ${state.publicKey}\n`);
    },
  },
  // The first release.
  { shape: /^sudo -u (\S+) (\/\S+)\/deploy\/release\/first-release$/, run: firstRelease },
  // The owner's command.
  {
    shape: /^cyrus backup restore (\S+) --identity (\S+)$/,
    run: restore,
  },
  { shape: /^cyrus doctor$/, run: doctor },
  { shape: /^cyrus enquiries (.+)$/, run: enquiries },
  { shape: /^cyrus release( .+)?$/, run: releaseCommand },
  { shape: /^systemctl (stop|start|restart) (\S+)$/, run: (m) => unitInstalled(m[2]!) },
];

/** The one shape a line has, or why not. */
function shapeOf(line: string): { command: Command; match: RegExpExecArray } | string {
  const found = COMMANDS.flatMap((command) => {
    const match = command.shape.exec(line);
    return match ? [{ command, match }] : [];
  });
  if (found.length === 0) return `docs/server.md runs a command this test does not know: ${line}`;
  if (found.length > 1) return `docs/server.md runs a command this test knows ${found.length} ways: ${line}`;
  return found[0]!;
}

// --- The tests ----------------------------------------------------------------------------------

test("docs/server.md is at most 12 KB", () => {
  expect(Buffer.byteLength(markdown)).toBeLessThanOrEqual(12 * 1024);
});

test("every command line of docs/server.md is one this test knows and runs", () => {
  expect(blocks.length).toBeGreaterThan(5);
  expect(blocks.flatMap((block) => block.lines.map(shapeOf).filter((why) => typeof why === "string"))).toEqual([]);
});

(isRoot ? describe : describe.skip)("docs/server.md's commands, in order, on a server standing in a folder", () => {
  blocks.forEach((block, i) => {
    test(`${i + 1}. ${block.heading}: ${block.lines.join(" / ")}`, async () => {
      for (const line of block.lines) {
        const shape = shapeOf(line);
        if (typeof shape === "string") throw new Error(shape);
        await shape.command.run(shape.match, block, line);
      }
    });
  });

  test("the units the page tells the owner to look at or start are the set-up's", () => {
    const units = [...markdown.matchAll(/`(?:journalctl -u|systemctl (?:start|restart|stop)) ([a-z][\w.-]+)/g)].map(
      (m) => m[1]!,
    );
    expect(units.length).toBeGreaterThan(3);
    for (const unit of units) unitInstalled(unit);
    for (const timer of markdown.matchAll(/`(cyrus-[\w-]+\.timer)`/g)) unitInstalled(timer[1]!);
  });

  test("the `cyrus` subcommands the prose names are listed by `cyrus help`", () => {
    for (const named of markdown.matchAll(/`(cyrus [^`]+)`/g)) cyrusInstalled(named[1]!);
  });
});
