/**
 * One release, and a rollback: the steps of docs/release-runner.md ("What a release does") in order, under the lock,
 * with the status file kept up to date and each attempt's own log (release-log.ts) written. A failure
 * before the switch leaves the live release alone; a failure after it (reload, restart, live check)
 * switches back by itself.
 */
import fs from "node:fs";
import path from "node:path";
import { build, buildHash, carryCaches, checkContent, checkRoutes, type Carried } from "./build";
import { installDependencies, pruneStore } from "./dependencies";
import { changed, checkout, removeReleaseRepositories, resolveCommit, updateMirror } from "./git";
import { checkLive, reloadNginx, renderNginx, restartService } from "./go-live";
import { pauseStatus, recordLive, rollbackTarget, toPrune } from "./history";
import { acquireLock } from "./lock";
import { checkServerSetup } from "./server-setup";
import { schemaRefusal } from "./schema";
import {
  currentId,
  INFO_FILE,
  listReleases,
  ownPath,
  paths,
  readInfo,
  releaseId,
  switchCurrent,
  timeStamp,
  writeJsonAtomically,
  type ReleaseInfo,
} from "./layout";
import { openLog, say, tell, withLog, type ReleaseLog } from "./release-log";
import type { Settings } from "./settings";
import { checkSandbox } from "./sandbox";
import { recordFailure, writeStatus, type CommitRef } from "./status";

export interface ReleaseResult {
  info: ReleaseInfo;
  dependencies: Record<string, string>;
  caches: { cache: boolean; public: boolean };
  serviceRestarted: boolean;
  seconds: Record<string, number>;
}

/** The live release for the status: `since` is when it went live (now: it just did). */
const liveRef = (info: ReleaseInfo) => ({
  id: info.id,
  commit: info.commit,
  title: info.title,
  time: info.commitTime,
  since: new Date().toISOString(),
});

/**
 * Folders left by a release that never finished (killed): not releases, and not in the way; and the
 * packages' store entries no release links to (dependencies.ts).
 */
function removeUnfinished(root: string): void {
  const { releases, build, buildTmp } = paths(root);
  if (fs.existsSync(build)) {
    say("release: removing build/, left unfinished by an earlier release");
    fs.rmSync(build, { recursive: true, force: true });
  }
  fs.rmSync(buildTmp, { recursive: true, force: true });
  const live = currentId(root);
  for (const id of fs.readdirSync(releases)) {
    if (id !== live && !fs.existsSync(path.join(releases, id, INFO_FILE))) {
      say(`release: removing ${id}, left unfinished by an earlier release`);
      fs.rmSync(path.join(releases, id), { recursive: true, force: true });
    }
  }
  pruneStore(root);
}

/**
 * Marks the release's /home with a time of its own (see ReleaseInfo.homeStamp): its own file, never a link's target.
 */
function stampHome(dir: string): number {
  const stamp = Math.floor(Date.now() / 1000);
  const home = ownPath(dir, "public", "home", "index.html");
  if (!fs.lstatSync(home).isFile()) throw new Error("public/home/index.html is not a file");
  fs.utimesSync(home, stamp, stamp);
  return stamp;
}

/**
 * Keeps the newest `keep` releases, the live one and the one --rollback goes to (history.ts), and the
 * packages they link to.
 */
function prune(root: string, keep: number): void {
  for (const id of toPrune(root, keep))
    fs.rmSync(path.join(paths(root).releases, id), { recursive: true, force: true });
  pruneStore(root);
}

/** Where the build caches come from: the newest release that still has Gatsby's .cache, else the live one. */
function cacheSource(root: string): string | undefined {
  const { releases } = paths(root);
  const withCache = listReleases(root)
    .reverse()
    .find((info) => fs.existsSync(path.join(releases, info.id, ".cache")));
  const id = withCache?.id ?? currentId(root);
  return id ? path.join(releases, id) : undefined;
}

export interface ReleaseOptions {
  /**
   * The caller holds the lock already: --if-moved and --wanted fetch and decide under it, so what
   * they decided on (the live release, a rollback's pause) is still so when the release starts.
   */
  locked?: boolean;
}

export async function release(settings: Settings, ref?: string, options: ReleaseOptions = {}): Promise<ReleaseResult> {
  const p = paths(settings.root);
  fs.mkdirSync(p.releases, { recursive: true });
  fs.mkdirSync(p.shared, { recursive: true });
  const unlock = options.locked ? () => undefined : acquireLock(p.lock);
  try {
    // Named by its time until the commit is known, then by the release's id (the same time).
    const startedAt = new Date();
    const log = openLog(settings.root, timeStamp(startedAt));
    try {
      return await withLog(log, () => releaseLogged(settings, ref, startedAt, log));
    } finally {
      log.close();
    }
  } finally {
    unlock();
  }
}

async function releaseLogged(
  settings: Settings,
  ref: string | undefined,
  startedAt: Date,
  log: ReleaseLog,
): Promise<ReleaseResult> {
  const { root } = settings;
  const p = paths(root);
  const seconds: Record<string, number> = {};
  let started = Date.now();
  let target: CommitRef = { commit: "", title: "", time: "" };
  let stepName = "fetch";
  // Where the release is now: build/ until it is built, then releases/<id>.
  let dir: string | undefined;
  let carried: Carried | undefined;
  const step = (name: string) => {
    seconds[stepName] = (Date.now() - started) / 1000;
    started = Date.now();
    stepName = name;
    say(`release: ${name}`);
    writeStatus(p.status, {
      state: "releasing",
      underway: { ...target, startedAt: new Date().toISOString(), step: name },
    });
  };
  try {
    removeUnfinished(root);
    // Before any work: a release built now could not go live, or not in its sandbox.
    checkServerSetup(settings.rootNginxConf, root);
    await checkSandbox(p.buildTmp, [p.shared, p.releases]);
    removeReleaseRepositories(p.releases);
    step("fetch");
    await updateMirror(settings.repo, p.mirror);
    target = await resolveCommit(p.mirror, ref ?? settings.branch);
    const id = releaseId(target.commit, startedAt);
    log.rename(id);
    log.note(`commit ${target.commit} (${target.title}, ${target.time})`);
    dir = p.build;
    const previousId = currentId(root);
    const previous = previousId ? readInfo(path.join(p.releases, previousId)) : undefined;
    const previousDir = previousId ? path.join(p.releases, previousId) : undefined;

    step("checkout");
    await checkout(p.mirror, target.commit, dir);
    step("dependencies");
    const dependencies = await installDependencies(dir, {
      root,
      sources: [previousDir, settings.seedNodeModules],
      npmCi: settings.npmCi,
      env: settings.buildEnv,
      scratch: p.buildTmp,
      seed: settings.seedNodeModules,
    });
    step("content check");
    await checkContent(dir, settings.buildEnv, root);
    step("caches");
    carried = await carryCaches(dir, cacheSource(root));
    step("build");
    await build(dir, settings.buildEnv, root);
    step("site check");
    await checkRoutes(dir, settings.buildEnv, root);
    const info: ReleaseInfo = {
      id,
      commit: target.commit,
      title: target.title,
      commitTime: target.time,
      builtAt: new Date().toISOString(),
      buildHash: buildHash(dir),
    };
    fs.renameSync(p.build, path.join(p.releases, id));
    dir = path.join(p.releases, id);
    step("nginx");
    await renderNginx(dir, settings);
    info.homeStamp = stampHome(dir);
    writeJsonAtomically(path.join(dir, INFO_FILE), info);

    step("switch");
    const serviceChanged =
      !previous || (await changed(p.mirror, previous.commit, target.commit, settings.servicePaths));
    await goLive(settings, info, previous, serviceChanged);
    log.note(`release: ${id} is live`);
    recordLive(root, info, "release", previousId);
    seconds[stepName] = (Date.now() - started) / 1000;
    prune(root, settings.keep);
    // The last release went live: an older failure is no longer what editors need to know, and a
    // rollback's pause has ended.
    writeStatus(p.status, {
      state: "live",
      live: liveRef(info),
      underway: undefined,
      lastFailure: undefined,
      paused: undefined,
    });
    return {
      info,
      dependencies,
      caches: { cache: carried.cache, public: carried.public },
      serviceRestarted: serviceChanged,
      seconds,
    };
  } catch (error) {
    const live = currentId(root) !== undefined;
    // The status first: removing the folder (its node_modules) takes a while on a busy machine.
    const failed = recordFailure(
      p.status,
      log,
      { target, step: stepName, error, folders: dir ? [dir, root] : [root], liveAfter: live },
      { state: live ? "live" : "failed", underway: undefined },
    );
    console.error(`release: the log of this release: ${log.file}`);
    if (dir && path.basename(dir) !== currentId(root)) fs.rmSync(dir, { recursive: true, force: true });
    // Packages installed for this commit alone (its npm ci ran its install scripts) go with it.
    pruneStore(root);
    throw failed;
  } finally {
    fs.rmSync(p.buildTmp, { recursive: true, force: true });
  }
}

/**
 * Switch, reload, restart when needed, live check; on any failure, back to `previous` (or to no
 * release at all for a first one) and the error passed on.
 */
async function goLive(
  settings: Settings,
  info: ReleaseInfo,
  previous: ReleaseInfo | undefined,
  restart: boolean,
): Promise<void> {
  const { root } = settings;
  const dir = path.join(paths(root).releases, info.id);
  switchCurrent(root, info.id);
  try {
    await reloadNginx(dir, settings);
    if (restart) await restartService(dir, settings);
    await checkLive(settings.liveUrl, info, settings.liveTimeoutMs);
  } catch (error) {
    tell(`release: ${(error as Error).message}\nrelease: switching back`);
    if (previous) switchCurrent(root, previous.id);
    else fs.rmSync(paths(root).current, { force: true });
    const back = previous ? path.join(paths(root).releases, previous.id) : dir;
    await reloadNginx(back, settings).catch((e: Error) => tell(`release: reload after switching back: ${e.message}`));
    if (restart && previous) await restartService(back, settings).catch((e: Error) => tell(e.message));
    // Said, not thrown: the release has failed either way, and this is what the operator must know.
    if (previous) {
      await checkLive(settings.liveUrl, previous, settings.liveTimeoutMs).then(
        () => tell(`release: ${previous.id} is live again`),
        (e: Error) => tell(`release: after switching back: ${e.message}`),
      );
    }
    throw error;
  }
}

/**
 * Back to the release that was live before the live one (history.ts): no build, a switch and a
 * reload. Refused when that release's code lacks a store migration the live one has (schema.ts),
 * unless `force`. Automatic releases then pause until a new commit (history.ts).
 */
export async function rollback(settings: Settings, force = false): Promise<ReleaseInfo> {
  const { root } = settings;
  const p = paths(root);
  const unlock = acquireLock(p.lock);
  try {
    checkServerSetup(settings.rootNginxConf, root);
    const current = listReleases(root).find((info) => info.id === currentId(root));
    const target = rollbackTarget(root);
    if (!current || !target) throw new Error("there is no earlier release to roll back to (npm run release -- --list)");
    const refusal = force ? undefined : schemaRefusal(root, current, target);
    if (refusal) throw new Error(refusal);
    const log = openLog(root, releaseId(target.commit));
    try {
      await withLog(log, async () => {
        log.note(`rollback from ${current.id} to ${target.id}`);
        const restart = await changed(p.mirror, current.commit, target.commit, settings.servicePaths);
        try {
          await goLive(settings, target, current, restart);
        } catch (error) {
          const ref = { commit: target.commit, title: target.title, time: target.commitTime };
          recordFailure(p.status, log, {
            target: ref,
            step: "switch",
            error,
            folders: [root],
            liveAfter: true,
            rollback: true,
          });
          console.error(`release: the log of this rollback: ${log.file}`);
          throw error;
        }
      });
    } finally {
      log.close();
    }
    recordLive(root, target, "rollback", current.id);
    writeStatus(p.status, { state: "live", live: liveRef(target), paused: pauseStatus(root) });
    return target;
  } finally {
    unlock();
  }
}
