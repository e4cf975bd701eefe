/**
 * @jest-environment node
 *
 * On a Node older than package.json's engines (the machine's own, Debian 12's Node 20, which has no
 * node:sqlite), `npm start`, `npm test`, the service and its command line stop at once with one
 * line naming the Node they need and .ci/use-node-22.sh (tools/check-node.cjs), instead of getting
 * far and failing on a TypeError. Run for real with that Node, found on this machine.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pkg from "../../package.json";

const root = path.resolve(__dirname, "../..");
const [, wantedMajor, wantedMinor] = /^>=(\d+)\.(\d+)\.\d+$/.exec(pkg.engines.node)!.map(Number);

const searchPath = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
const onPath = (command: string) =>
  searchPath.map((dir) => path.join(dir, command)).filter((file) => fs.existsSync(file));

/** The first Node on this machine older than the engines' range: where Debian and installers put it, then PATH. */
function olderNode(): { node: string; version: string } | undefined {
  for (const node of new Set(["/usr/bin/node", "/usr/local/bin/node", ...onPath("node")])) {
    if (!fs.existsSync(node)) continue;
    const asked = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8", timeout: 20_000 });
    const [major, minor] = (asked.stdout ?? "").trim().split(".").map(Number);
    if (asked.status !== 0 || major === undefined || minor === undefined) continue;
    if (major < wantedMajor! || (major === wantedMajor && minor < wantedMinor!)) {
      return { node, version: asked.stdout.trim() };
    }
  }
  return undefined;
}

const older = olderNode();
const npm = onPath("npm")[0];
const reason = !older
  ? ` (not run: no Node older than ${wantedMajor}.${wantedMinor} on this machine, looked in /usr/bin/node, /usr/local/bin/node and PATH)`
  : "";

/** Run with the older Node first on PATH, and no Node of the engines' range on it; npm from the usual PATH. */
function withOlderNode(command: string, args: string[]) {
  const hidden = searchPath.filter((dir) => {
    const node = path.join(dir, "node");
    return !fs.existsSync(node) || fs.realpathSync(node) === fs.realpathSync(older!.node);
  });
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));
  const started = Date.now();
  const run = spawnSync(command, args, {
    cwd: root,
    env: { ...env, PATH: [path.dirname(older!.node), ...hidden].join(path.delimiter) },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { ...run, seconds: (Date.now() - started) / 1000 };
}

const oneLine = () =>
  new RegExp(
    `^This project needs Node\\.js ${wantedMajor}\\.${wantedMinor} or later \\(package\\.json engines ${pkg.engines.node.replace(/\./g, "\\.")}, with node:sqlite\\); ` +
      `this is Node v${older!.version.replace(/\./g, "\\.")} \\(${older!.node}\\)\\. Run \`\\. \\.ci/use-node-22\\.sh\` first: it puts Node 22 on PATH for this shell\\.\\n$`,
  );

test("on this Node, of the engines' range, the check passes and says nothing", () => {
  const run = spawnSync(process.execPath, [path.join(root, "tools", "check-node.cjs")], { encoding: "utf8" });
  expect(run.status).toBe(0);
  expect(run.stdout + run.stderr).toBe("");
});

const withOlder = older && npm ? test : test.skip;
if (!older) console.warn(`check-node.test.ts${reason}`);

describe(`on the machine's older Node${reason}`, () => {
  withOlder.each([
    ["npm start", ["run", "--silent", "start"]],
    ["npm test", ["run", "--silent", "test"]],
    ["npm run site-service", ["run", "--silent", "site-service"]],
    ["npm run enquiries -- list", ["run", "--silent", "enquiries", "--", "list"]],
  ])("%s stops at once with one line naming the Node it needs", (_name, args) => {
    const run = withOlderNode(npm!, args);
    expect(run.stderr).toMatch(oneLine());
    expect(run.stdout).toBe("");
    expect(run.status).toBe(1);
    // Nothing started before it: no build, no Jest, no store (seconds, not the minutes of a build).
    expect(run.seconds).toBeLessThan(30);
  });

  withOlder("the service as its systemd unit starts it (node --import tsx, no npm) stops the same way", () => {
    const run = withOlderNode(older!.node, ["--import", "tsx", "src/site-service/bin/site-service.ts"]);
    expect(run.stderr).toMatch(oneLine());
    expect(run.stdout).toBe("");
    expect(run.status).toBe(1);
  });
});
