/**
 * tsx's cache is kept out of the system's temporary folder for every command that runs the release's
 * code (the units, the runner's own commands, and the owner's `cyrus`): tsx writes transpiled code to
 * <tmp>/tsx-<uid> and runs what it finds there without checking who made it, so outside the units'
 * PrivateTmp (a release or the status check run by hand or by cron) another user could plant code
 * there for the release user to run. Each command runs here with a temporary folder of its own
 * (TMPDIR) that is then looked at: the same command without the setting fills it, so the look would
 * see a cache.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { run } from "../../deploy/release/exec";
import { projectRoot } from "../support/serve";

jest.setTimeout(120_000);

let base: string;
let tmp: string;
let script: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "release-tsx-cache-"));
  tmp = path.join(base, "tmp");
  fs.mkdirSync(tmp);
  // A TypeScript file of its own (never cached before): tsx transpiles it and, with a cache, keeps it.
  script = path.join(projectRoot, "deploy", "release", `.tsx-cache-probe-${process.pid}.ts`);
  fs.writeFileSync(script, `const said: string = "${"probe".repeat(50)}";\nconsole.log(said.length);\n`);
});
afterEach(() => {
  fs.rmSync(script, { force: true });
  fs.rmSync(base, { recursive: true, force: true });
});

/**
 * What tsx left in the temporary folder: its files, by path under it. (npm keeps Node's compile cache
 * there, node-compile-cache/, whose entries Node checks against the source they were made from.)
 */
function leftInTmp(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      found.push(path.relative(tmp, file));
      if (entry.isDirectory()) walk(file);
    }
  };
  walk(tmp);
  return found.filter((file) => file.startsWith("tsx"));
}

/** The environment of the release user's shell: nothing of tsx's settings inherited from this one. */
const env = (): NodeJS.ProcessEnv => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("TSX_")));
  return { ...clean, TMPDIR: tmp };
};

test("without the setting, tsx fills <tmp>/tsx-<uid> (what the other tests look for is real)", () => {
  const result = spawnSync(process.execPath, ["--import", "tsx", script], {
    cwd: projectRoot,
    env: env(),
    encoding: "utf8",
  });
  expect(result.stdout.trim()).toBe("250");
  const cache = leftInTmp().filter((file) => file.startsWith(`tsx-${process.getuid!()}${path.sep}`));
  expect(cache.length).toBeGreaterThan(0);
});

test("every command the release runs (deploy/release/exec.ts) leaves nothing of tsx in the temporary folder", async () => {
  const outcome = await run(process.execPath, ["--import", "tsx", script], {
    cwd: projectRoot,
    env: env(),
    quiet: true,
  });
  expect(outcome).toEqual({ code: 0, output: "250\n" });
  expect(leftInTmp()).toEqual([]);
});

test("npm run release, as the docs run it by hand, leaves nothing of tsx in the temporary folder", () => {
  const result = spawnSync("npm", ["run", "--silent", "release", "--", "--help"], {
    cwd: projectRoot,
    env: env(),
    encoding: "utf8",
  });
  expect(result.stdout).toContain("usage: npm run release");
  expect(leftInTmp()).toEqual([]);
});

test("the docs run no tsx by hand: the owner's `cyrus` runs the release's and the service's commands, with the cache off", () => {
  const lines = ["server-reference.md", "server.md"].flatMap((page) =>
    [...fs.readFileSync(path.join(projectRoot, "docs", page), "utf8").matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((m) => (m[1] ?? "").split("\n"))
      .filter((line) => !line.trimStart().startsWith("#")),
  );
  // A command a person types that runs tsx would need the setting on every line: none is left to forget it.
  expect(lines.filter((line) => /(--import tsx|\.bin\/tsx|\btsx |npm run release|enquiries\.ts)/.test(line))).toEqual(
    [],
  );
  expect(lines.filter((line) => /\bcyrus (release|enquiries)\b/.test(line)).length).toBeGreaterThanOrEqual(6);
  // What cyrus gives every command it runs as the release's or the service's user (its environment is
  // asserted whole in cyrus-command.test.ts).
  const cyrus = fs.readFileSync(path.join(projectRoot, "deploy", "server", "cyrus"), "utf8");
  expect(cyrus).toMatch(/^\s*env\+=\(TSX_DISABLE_CACHE=1\)$/m);
});
