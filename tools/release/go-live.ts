/**
 * nginx and the service around a switch of `current`: the release's own nginx configuration
 * (rendered by its deploy/nginx/render.ts into <release>/nginx, with --standalone so that `nginx -t`
 * can test it whole before it goes live), the reload, the restart, and the check of the live site.
 * nginx includes <root>/current/nginx/cyrus[.]conf: a reload after the switch takes the new files
 * and their Content-Security-Policy together.
 */
import path from "node:path";
import { must, run, shell, StepError } from "./exec";
import type { Settings } from "./settings";

export const confDir = (dir: string) => path.join(dir, "nginx");

const values = (dir: string) => ({ release: dir, conf: confDir(dir), id: path.basename(dir) });

export async function renderNginx(dir: string, settings: Settings): Promise<void> {
  await must(
    "nginx",
    run(
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
        ...settings.nginxArgs,
      ],
      { cwd: dir, env: settings.buildEnv },
    ),
  );
  await must("nginx -t", shell(settings.nginxTest, values(dir)));
}

export async function reloadNginx(dir: string, settings: Settings): Promise<void> {
  await must("nginx reload", shell(settings.nginxReload, values(dir)));
}

export async function restartService(dir: string, settings: Settings): Promise<void> {
  await must("service restart", shell(settings.serviceRestart, values(dir)));
}

/**
 * /home answers 200 with this build's compilation hash in its page: nginx's old workers may still
 * answer for a moment after the reload, so it is asked again until the timeout.
 */
export async function checkLive(liveUrl: string, hash: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${liveUrl}/home`, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
      const body = await res.text();
      if (res.status === 200 && body.includes(hash)) return;
      last = res.status === 200 ? "it answers 200 with another build" : `HTTP ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new StepError(
    "live check",
    `${liveUrl}/home did not serve build ${hash} within ${timeoutMs / 1000} s (${last})`,
  );
}
