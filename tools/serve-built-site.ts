/**
 * `gatsby serve` of the built public/ on a free loopback port: what the benchmark measures and the
 * built-site and browser tests run against (they import it through __tests__/support/serve.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const projectRoot = path.resolve(__dirname, "..");

export interface RunningSite {
  origin: string;
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `gatsby serve` of the built public/ (with its functions) on a free loopback port; `env` adds to
 * or overrides the server's environment (e.g. ENQUIRY_DATA_DIR); `root`, the project whose build it
 * serves (a copy built by a test).
 */
export async function serveBuiltSite(env: NodeJS.ProcessEnv = {}, root = projectRoot): Promise<RunningSite> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(projectRoot, "node_modules/gatsby/cli.js"), "serve", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", GATSBY_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    // Bounded wait for the exit; the timer is cleared so that it cannot keep Jest running.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
    clearTimeout(timer);
  };
  // Bounded wait: at most 120 tries, 500 ms apart.
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`gatsby serve exited early:\n${output}`);
    try {
      const res = await fetch(`${origin}/home`);
      if (res.ok) return { origin, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`gatsby serve did not answer within 60 s:\n${output}`);
}
