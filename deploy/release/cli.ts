/**
 * npm run release [-- --commit <sha|branch>]   build a commit (default: the branch's head) and put it live
 * npm run release -- --list                    the releases kept, the live one and --rollback's marked; a pause
 * npm run release -- --rollback [--force]      back to the release live before the live one (no build);
 *                                              automatic releases pause until a new commit (history.ts)
 * npm run release -- --wanted                  release while a push's request is waiting (path unit)
 * npm run release -- --if-moved                release when the branch moved since the live release (timer)
 * Settings: RELEASE_* variables, or <root>/shared/release.env (docs/server-reference.md, "release.env").
 * It runs as the release user (cyrus-release), never as root: everything but --list and --help refuses.
 */
import { parseArgs } from "node:util";
import { currentPause, readHistory, RESUME, rollbackTarget } from "./history";
import { currentId, listReleases } from "./layout";
import { LockedError } from "./lock";
import { release, rollback } from "./release";
import { releaseIfMoved, releaseWhenWanted } from "./runner";
import { readSettings } from "./settings";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      commit: { type: "string" },
      list: { type: "boolean" },
      rollback: { type: "boolean" },
      force: { type: "boolean" },
      wanted: { type: "boolean" },
      "if-moved": { type: "boolean" },
      root: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(
      "usage: npm run release -- [--commit <sha|branch>] | --list | --rollback [--force] | --wanted | --if-moved  [--root <folder>]",
    );
    return 0;
  }
  if (values.list) {
    const root = values.root ?? process.env.RELEASE_ROOT;
    if (!root) throw new Error("RELEASE_ROOT is not set");
    const live = currentId(root);
    const releases = listReleases(root);
    const back = rollbackTarget(root)?.id;
    if (releases.length === 0) console.log("no releases yet");
    for (const info of releases.reverse()) {
      const mark = info.id === live ? "  (live)" : info.id === back ? "  (--rollback goes here)" : "";
      console.log(
        `${info.id === live ? "*" : " "} ${info.id}  ${info.commit.slice(0, 12)}  ${info.builtAt}  ${info.title}${mark}`,
      );
    }
    const pause = currentPause(readHistory(root));
    if (pause) {
      const { commit, title } = pause.rolledBackFrom;
      console.log(
        `automatic releases are paused since ${pause.since}: rolled back from ${commit.slice(0, 12)} (${title}).\n${RESUME}`,
      );
    }
    return 0;
  }
  // A build runs the repository's code (packages' scripts, gatsby-node): as root, a bad commit would
  // own the server. The release user may do exactly what a release needs (docs/server-design.md).
  if (process.getuid?.() === 0) {
    console.error(
      "release: refusing to run as root. A release runs as its own user, which owns the release root " +
        "(cyrus-release on a server: sudo -u cyrus-release npm run release; docs/server.md).",
    );
    return 4;
  }
  if (values.force && !values.rollback) {
    console.error("release: --force goes with --rollback (a release run by a person always builds)");
    return 2;
  }
  const settings = readSettings(process.env, values.root);
  const started = Date.now();
  if (values.rollback) {
    const info = await rollback(settings, values.force);
    console.log(
      `release: rolled back to ${info.id} (${info.title}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
        "release: automatic releases are paused until a new commit on the branch (npm run release -- --list)",
    );
    return 0;
  }
  if (values.wanted) {
    const { failed } = await releaseWhenWanted(settings);
    return failed > 0 ? 1 : 0;
  }
  if (values["if-moved"]) {
    const outcome = await releaseIfMoved(settings);
    if (outcome === "busy" || outcome === "up to date")
      console.log(`release: ${outcome === "busy" ? "a release is running" : "up to date"}`);
    return 0;
  }
  const result = await release(settings, values.commit);
  console.log(
    `release: ${result.info.id} (${result.info.title}) is live after ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
      `release: ${JSON.stringify({ dependencies: result.dependencies, caches: result.caches, serviceRestarted: result.serviceRestarted, seconds: result.seconds })}`,
  );
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    const step = error instanceof Error && "step" in error ? `${String(error.step)} failed: ` : "";
    console.error(
      `release: ${error instanceof LockedError ? "" : step}${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = error instanceof LockedError ? 3 : 1;
  },
);
