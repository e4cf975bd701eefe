/**
 * npm run release on a server set up before the move (deploy/release/, src/site-service/) and before
 * nginx ran as its own user, with real git, the real build and nginx (as release.test.ts). Apart from
 * release.test.ts so that CI can run the two side by side with other suites (.ci/run).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WANTED_FILE } from "../../src/site-service";
import { expectExit, startReleaseSite, type ReleaseSite, type StatusFile } from "./support/release-site";
import { projectRoot, waitFor } from "./support/stack";

// The builds run on a busy 2-core CI machine: bounds, not measures.
jest.setTimeout(15 * 60_000);

/**
 * A server set up before the service and the release runner moved (to src/site-service and
 * deploy/release), and before nginx ran as its own user: it keeps the units it installed then
 * (copies that start the old paths from `current`), and root's nginx includes the release's
 * configuration. Released by those units' own commands, the commit from before the move and the
 * move go live; the next release is held until the upgrade step of docs/server-reference.md is taken, then
 * goes live, each through a push hook note; the service answers after each.
 */
describe("a server set up before the move and before nginx ran as its own user", () => {
  const OLD_UNITS = { service: "src/enquiry-receiver/bin/enquiry-server.ts", release: "tools/release/cli.ts" };
  let server: ReleaseSite;
  beforeAll(async () => {
    server = await startReleaseSite(OLD_UNITS);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const git = (args: string[]) => execFileSync("git", args, { cwd: projectRoot, encoding: "utf8" }).trim();
  const serverStatus = () =>
    JSON.parse(fs.readFileSync(path.join(server.root, "shared", "release-status.json"), "utf8")) as StatusFile;
  /** /api/health through nginx, as a monitor asks it: the service behind it answers. */
  const health = async () => {
    await waitFor(`${server.origin}/api/health`, 200, 100).catch(() => undefined);
    const res = await fetch(`${server.origin}/api/health`);
    return { status: res.status, body: await res.text() };
  };
  const OK = { status: 200, body: '{"status":"ok"}' };
  /** A push of `commit` announced to the hook, then the path unit's release of its note. */
  async function releaseNoted(commit: string, code = 0): Promise<string> {
    expect(await server.hookPush(commit)).toBe(202);
    const result = await server.release(["--wanted"]);
    expect(result.output).toContain("release: wanted by a push");
    expect(fs.existsSync(path.join(server.requests, WANTED_FILE))).toBe(false);
    if (code === 0) expectExit(result, 0);
    else expect(result.code).toBe(code);
    return result.output;
  }
  const edit = (text: string) =>
    server.push("data/home/home.yaml", (t) => t.replace(/^title: .*$/m, `title: "${text}"`), text);

  test("the move goes live by the old units; then releases wait for the upgrade step, and go live after it", async () => {
    // The history is the repository's own: the last commit before the move added deploy/release/.
    const moved = git(["log", "--no-renames", "--diff-filter=A", "--format=%H", "--", "deploy/release/cli.ts"])
      .split("\n")
      .at(-1)!;
    expect(moved).toMatch(/^[0-9a-f]{40}$/);
    const beforeMove = git(["rev-parse", `${moved}^`]);
    const head = git(["rev-parse", "HEAD"]);
    const live = () => fs.realpathSync(path.join(server.root, "current"));

    // 1. The server as it was: the commit before the move, its service started by the old path. (It
    // was released by the runner of its day, which knew nothing of root's nginx: today's is told to
    // look for it elsewhere.)
    const empty = fs.mkdtempSync(path.join(server.base, "no-root-nginx-"));
    // Its lockfiles are older than today's checkout's (packages added since): its install, which the
    // runner does with npm ci, is the checkout's node_modules, a superset, copied (no network here).
    // Today's runner runs it in the build's sandbox, into the new store entry mounted at node_modules
    // (hard links cannot cross that mount), with the test's seed checkout readable there.
    const seed = server.seedCheckout;
    const linkSeed = `case "$PWD" in */admin) src='${seed}/admin/node_modules';; *) src='${seed}/node_modules';; esac; cp -a --reflink=auto "$src/." node_modules/`;
    const env = { RELEASE_ROOT_NGINX_CONF: empty, RELEASE_NPM_CI: linkSeed };
    expectExit(await server.release(["--commit", beforeMove], env), 0);
    expect(serverStatus().live?.commit).toBe(beforeMove);
    expect(fs.existsSync(path.join(live(), "tools/release/release.ts"))).toBe(true);
    expect(await health()).toEqual(OK);

    // 2. The move, released by the old runner; the service restarts by the old path into the new code.
    const restarts = server.restarts().length;
    await releaseNoted(head);
    expect(serverStatus().live?.commit).toBe(head);
    expect(fs.existsSync(path.join(live(), "src/site-service/index.ts"))).toBe(true);
    expect(fs.existsSync(path.join(live(), "src/enquiry-receiver/index.ts"))).toBe(false);
    expect(server.restarts()).toHaveLength(restarts + 1);
    expect(await health()).toEqual(OK);

    // 3. The next release, by the moved runner through the old path, sees root's nginx still
    // including the release's configuration: it builds nothing and names the upgrade step.
    const held = edit("Welcome to Cyrus, after the move");
    const output = await releaseNoted(held, 1);
    expect(output).toContain('releases are held until the upgrade step "nginx runs as its own user" is taken');
    expect(serverStatus().live?.commit).toBe(head);
    expect(serverStatus().lastFailure).toMatchObject({ step: "server setup" });
    expect(await health()).toEqual(OK);

    // 4. The upgrade step (root's include removed, cyrus-nginx started on the live release), then
    // the same push's note again: it goes live, and the service answers.
    await server.nginx.takeUpgradeStep();
    expect(await health()).toEqual(OK);
    await releaseNoted(held);
    expect(serverStatus().live?.commit).toBe(held);
    expect((await server.page("/home")).text).toContain("Welcome to Cyrus, after the move");
    expect(await health()).toEqual(OK);
  });
});
