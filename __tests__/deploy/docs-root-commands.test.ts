/**
 * The shell commands of docs/server-reference.md and docs/server.md (the owner's pages), read as an attacker
 * would: every build runs the repository's code as the release user, who writes everything under the
 * release root, so a command root runs must never read, install or run a path there (a unit or sudo
 * rule the build rewrote, a script it swapped). Commands run as another user (`sudo -u <user>`,
 * `runuser -u <user>`) may, and so may `cyrus …`, root's own installed command, which runs the
 * release's commands as their users; root's are parsed from every `sh` block (with `cd`, `&&`, pipes,
 * `$( … )` and cron lines followed). Setting up is server.md's: a clone of root's own copy and the setup
 * run from it; every upgrade step is a run of the setup command from that copy.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./support/stack";

const RELEASE_ROOT = "/srv/cyrus";
const DOCS = path.join(projectRoot, "docs", "server-reference.md");
const SERVER_PAGE = path.join(projectRoot, "docs", "server.md");

/** Programs that read (or run) every file they are given, bare names included, and the folder they run in. */
const READERS = new Set(["install", "cp", "mv", "cat", "less", "head", "tail", "source", ".", "bash", "sh", "dash"]);
const RUNNERS = new Set(["npm", "npx", "node", "tsx", "make", "perl", "python3"]);
const OPERATORS = ["&&", "||", "$(", ";", "|", "&", "(", ")"];

/** The `sh` blocks, each with the heading it is under. */
function shBlocks(markdown: string): { heading: string; text: string }[] {
  const blocks: { heading: string; text: string }[] = [];
  let heading = "";
  let block: string[] | undefined;
  for (const line of markdown.split("\n")) {
    if (block) {
      if (line.startsWith("```")) {
        blocks.push({ heading, text: block.join("\n") });
        block = undefined;
      } else block.push(line);
    } else if (/^#{2,4} /.test(line)) heading = line.replace(/^#+ /, "");
    else if (line.startsWith("```sh")) block = [];
  }
  return blocks;
}

/** One line's words and operators, as sh splits them (quotes removed, a comment dropped). */
function tokenize(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) out.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (ch === "'" || ch === '"') {
      const close = line.indexOf(ch, i + 1);
      word = (word ?? "") + line.slice(i + 1, close === -1 ? undefined : close);
      i = close === -1 ? line.length : close;
    } else if (ch === "\\") {
      word = (word ?? "") + (line[i + 1] ?? "");
      i += 1;
    } else if (/\s/.test(ch)) end();
    else if (ch === "#" && word === undefined) break;
    else {
      const op = OPERATORS.find((o) => line.startsWith(o, i));
      if (op) {
        end();
        out.push(op);
        i += op.length - 1;
      } else word = (word ?? "") + ch;
    }
  }
  end();
  return out;
}

/** What root runs in one block that reads, installs or runs something under the release root. */
function rootUsesOfReleaseRoot(block: string): string[] {
  const found: string[] = [];
  let cwd = "/root";
  const underRoot = (p: string) => p === RELEASE_ROOT || p.startsWith(`${RELEASE_ROOT}/`);
  const lines = block.replace(/\\\n/g, " ").split("\n");
  for (const raw of lines) {
    // A cron line runs as the user it names.
    const cron = /^(\S+\s+){5}(\S+)\s+(.*)$/.exec(raw);
    const line = cron && /^[\d*/,-]+$/.test(raw.split(/\s+/)[0]!) ? cron[3]! : raw;
    if (cron && /^[\d*/,-]+$/.test(raw.split(/\s+/)[0]!) && cron[2] !== "root") continue;
    let command: string[] = [];
    const commands: string[][] = [];
    for (const token of tokenize(line)) {
      if (OPERATORS.includes(token)) {
        commands.push(command);
        command = [];
      } else command.push(token);
    }
    commands.push(command);
    for (let words of commands) {
      while (words[0] !== undefined && /^[A-Za-z_]\w*=/.test(words[0])) words = words.slice(1);
      if (words.length === 0) continue;
      // As another user: what it reads is its own business (the release user's, the service's).
      const asUser = (flag: string) => {
        const at = words.indexOf(flag);
        return at > 0 && words[at + 1] !== undefined && words[at + 1] !== "root";
      };
      if ((words[0] === "sudo" || words[0] === "runuser") && asUser("-u")) continue;
      if (words[0] === "sudo") words = words.slice(1);
      const [program = "", ...args] = words;
      if (program === "cd") {
        cwd = path.resolve(cwd, args[0] ?? "/root");
        continue;
      }
      const resolve = (word: string) => path.resolve(cwd, word.replace(/^\d?[<>]+&?/, ""));
      const operands = args.filter((w) => !w.startsWith("-"));
      // grep's first operand is its pattern, not a file.
      if (program === "grep" && !args.some((w) => w === "-e" || w === "-f")) operands.shift();
      const paths = operands.filter((w) => READERS.has(program) || w.includes("/") || /^\d?[<>]/.test(w)).map(resolve);
      const why =
        (program.includes("/") && underRoot(resolve(program)) && "runs a file there") ||
        (RUNNERS.has(program) && underRoot(cwd) && `runs ${program} in ${cwd}`) ||
        (paths.some(underRoot) && `reads or writes ${paths.filter(underRoot).join(", ")}`);
      if (why) found.push(`${words.join(" ")}: ${why}`);
    }
  }
  return found;
}

test("the check finds root's uses of the release root, and lets other users' through", () => {
  const bad = [
    "install -m 644 /srv/cyrus/current/deploy/systemd/* /etc/systemd/system/",
    "install -m 440 /srv/cyrus/current/deploy/sudoers/cyrus-release /etc/sudoers.d/cyrus-release",
    "cd /srv/cyrus/current && npm run release",
    "cd /srv/cyrus/current/deploy && install -m 644 systemd/cyrus-nginx.service /etc/systemd/system/",
    "bash /srv/cyrus/current/deploy/server/setup",
    "/srv/cyrus/current/deploy/server/setup --tls-key /etc/cyrus/tls/privkey.pem",
    "cd /srv/cyrus/current && ./deploy/server/setup",
    ". /srv/cyrus/shared/release.env",
    "set -a && source /srv/cyrus/shared/release.env && set +a",
    "systemctl link /srv/cyrus/current/deploy/systemd/cyrus-nginx.service",
    "cp /srv/cyrus/current/deploy/polkit/cyrus-release.rules /etc/polkit-1/rules.d/",
    "sudo node /srv/cyrus/current/deploy/release/cli.ts",
    "sudo -u root sh /srv/cyrus/current/x.sh",
    "echo x > /srv/cyrus/shared/release.env",
    "chown root: /srv/cyrus/shared/release.env",
    "*/15 * * * * root cd /srv/cyrus/current && node_modules/.bin/tsx x.ts",
    "out=$(cat /srv/cyrus/shared/release.env) || true",
  ];
  for (const line of bad) expect({ line, found: rootUsesOfReleaseRoot(line).length }).toEqual({ line, found: 1 });
  const good = [
    "sudo -u cyrus-release RELEASE_ROOT=/srv/cyrus npm run release -- --list",
    "cd /srv/cyrus/current && sudo -u cyrus-release RELEASE_ROOT=/srv/cyrus npm run release",
    '*/15 * * * * root cd /srv/cyrus/current && set -a && . /etc/cyrus/enquiry.env && set +a && out=$(runuser -u cyrus -- node_modules/.bin/tsx x.ts 2>&1) || echo "$out"',
    "*/5 * * * * cyrus-release cd /srv/cyrus/current && npm run release",
    "grep -r /srv/cyrus /etc/nginx",
    "/opt/cyrus-setup/deploy/server/setup --tls-key /etc/cyrus/tls/privkey.pem   # not /srv/cyrus/current/deploy/server/setup",
    "systemctl cat cyrus-enquiry | grep ExecStart",
    "cyrus release --rollback",
    'cyrus enquiries invite ana@example.com --name "Ana Lima"',
    '*/15 * * * * root out=$(/usr/local/sbin/cyrus enquiries status 2>&1) || echo "$out"',
  ];
  for (const line of good) expect({ line, found: rootUsesOfReleaseRoot(line) }).toEqual({ line, found: [] });
});

test.each(["server-reference.md", "server.md"])(
  "no command root runs in docs/%s reads, installs or runs a file under the release root",
  (page) => {
    const blocks = shBlocks(fs.readFileSync(path.join(projectRoot, "docs", page), "utf8"));
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(blocks.flatMap((b) => rootUsesOfReleaseRoot(b.text).map((use) => `${b.heading}: ${use}`))).toEqual([]);
  },
);

test("setting up and every upgrade step are runs of the setup from root's own copy, which does the rest", () => {
  const blocks = shBlocks(fs.readFileSync(DOCS, "utf8"));
  const pageBlocks = shBlocks(fs.readFileSync(SERVER_PAGE, "utf8"));
  const runsSetup = (text: string) => /^\/opt\/cyrus-setup\/deploy\/server\/setup\b/m.test(text);
  // Setting up, and upgrading, step by step: the owner's page.
  for (const step of ["The project's copy and the set-up", "Upgrading"])
    expect({ step, runsSetup: pageBlocks.some((b) => b.heading === step && runsSetup(b.text)) }).toEqual({
      step,
      runsSetup: true,
    });
  const upgrades = blocks.filter((b) =>
    ["The site's service", "nginx runs as its own user"].some((h) => b.heading.startsWith(h)),
  );
  expect(upgrades.length).toBeGreaterThanOrEqual(2);
  for (const { heading, text } of upgrades)
    expect({ heading, runsSetup: runsSetup(text) }).toEqual({ heading, runsSetup: true });
  // What the setup does is not done by hand, as root, in any block.
  for (const { heading, text } of blocks)
    for (const line of text.split("\n").filter((l) => !/^\s*#/.test(l)))
      expect({
        heading,
        line,
        byHand: /^(install|useradd|usermod|setfacl|systemctl (daemon-reload|mask|enable))\b/.test(line),
      }).toEqual({
        heading,
        line,
        byHand: false,
      });
  // The setup's copy is root's: the documented place is not under the release root.
  expect(pageBlocks.some((b) => /^git clone --branch v\S+ \S+ \/opt\/cyrus-setup$/m.test(b.text))).toBe(true);
});
