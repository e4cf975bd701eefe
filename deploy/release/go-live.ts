/**
 * nginx and the service around a switch of `current`: the release's own nginx configuration
 * (rendered by its deploy/nginx/render.ts into <release>/nginx, with --standalone so that `nginx -t`
 * can test it whole before it goes live), the reload, the restart, and the check of the live site.
 * nginx (cyrus-nginx.service, as its own user) runs <root>/current/nginx/cyrus-nginx.conf: a reload
 * after the switch takes the new files and their Content-Security-Policy together.
 */
import fs from "node:fs";
import path from "node:path";
import { must, shell, StepError } from "./exec";
import { ownPath, paths, type ReleaseInfo } from "./layout";
import { testNginx } from "./nginx-test";
import { runSandboxed, sandboxFor } from "./sandbox";
import type { Settings } from "./settings";

export const confDir = (dir: string) => path.join(dir, "nginx");

const values = (dir: string) => ({ release: dir, conf: confDir(dir), id: path.basename(dir) });

/** Rendered by the release's own code: in the build's sandbox (sandbox.ts), as the build is. */
export async function renderNginx(dir: string, settings: Settings): Promise<void> {
  await must(
    "nginx",
    runSandboxed(
      process.execPath,
      [
        "--import",
        "tsx",
        "deploy/nginx/render.ts",
        "--standalone",
        "--root",
        path.join(dir, "public"),
        "--out",
        confDir(dir),
        "--release-status",
        paths(settings.root).status,
        ...settings.nginxArgs,
      ],
      { cwd: dir, env: settings.buildEnv, sandbox: sandboxFor(settings.root, dir) },
    ),
  );
  // The runner reads what was rendered: the release's own folder, not a link out of it.
  if (!fs.lstatSync(ownPath(dir, "nginx")).isDirectory()) throw new StepError("nginx", "nginx/ is not a folder");
  // On a copy with a throw-away key: the release user never reads the server's (nginx-test.ts).
  await testNginx(dir, confDir(dir), settings);
}

export async function reloadNginx(dir: string, settings: Settings): Promise<void> {
  await must("nginx reload", shell(settings.nginxReload, values(dir)));
}

export async function restartService(dir: string, settings: Settings): Promise<void> {
  await must("service restart", shell(settings.serviceRestart, values(dir)));
}

/**
 * /home answers 200 with this build's compilation hash in its page, and nginx's ETag for it
 * ("<mtime hex>-<size hex>", asked without compression so that it is the HTML file's) names this
 * release's stamp: the page could be the same in two releases. nginx's old workers may still answer
 * for a moment after the reload, so it is asked until three answers in a row (a quarter second apart)
 * are this release's, within the timeout.
 */
export async function checkLive(liveUrl: string, info: ReleaseInfo, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const etag = info.homeStamp === undefined ? undefined : `"${info.homeStamp.toString(16)}-`;
  let last = "";
  let inARow = 0;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${liveUrl}/home`, {
        redirect: "manual",
        headers: { "accept-encoding": "identity" },
        signal: AbortSignal.timeout(5_000),
      });
      const body = await res.text();
      if (res.status !== 200) last = `HTTP ${res.status}`;
      else if (!body.includes(info.buildHash)) last = "it answers 200 with another build";
      else if (etag && !res.headers.get("etag")?.startsWith(etag)) last = "it answers 200 with another release's page";
      else {
        inARow += 1;
        if (inARow === 3) return;
        last = "";
      }
      if (last) inARow = 0;
    } catch (error) {
      last = (error as Error).message;
      inARow = 0;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new StepError(
    "live check",
    `${liveUrl}/home did not serve release ${info.id} within ${timeoutMs / 1000} s (${last || "not three answers in a row"})`,
  );
}
