/**
 * A real PostgreSQL 15 for the store's tests, started as the deploy tests start nginx: its own
 * cluster in a temporary folder, on a free loopback port, as the `postgres` user (the server
 * refuses to run as root), stopped and removed afterwards. Where the server is not installed the
 * tests fail saying how to install it: the store's promise on PostgreSQL is tested, not assumed.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./serve";

const BIN = process.env.POSTGRES_BIN ?? "/usr/lib/postgresql/15/bin";

export interface TestPostgres {
  port: number;
  /** A new, empty database on this server; its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut), keeping its data. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Who runs the server: the postgres user when this process is root, else this user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("PostgreSQL's tests run the server as the postgres user, which does not exist");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

export async function startPostgres(): Promise<TestPostgres> {
  if (!fs.existsSync(path.join(BIN, "postgres"))) {
    throw new Error(
      `PostgreSQL 15 is not installed (no ${BIN}/postgres): the store's tests start their own server. ` +
        "On Debian: apt-get install postgresql (.ci/run does it); elsewhere set POSTGRES_BIN to its bin folder.",
    );
  }
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-pg-"));
  const data = path.join(dir, "data");
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const init = spawnSync(
    path.join(BIN, "initdb"),
    ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
    {
      ...user,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
  const port = await freePort();
  let server: ChildProcess | undefined;
  let output = "";
  let databases = 0;

  const resume = async () => {
    server = spawn(
      path.join(BIN, "postgres"),
      ["-D", data, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${dir}`],
      { ...user, stdio: ["ignore", "pipe", "pipe"] },
    );
    server.stdout!.on("data", (chunk) => (output += chunk));
    server.stderr!.on("data", (chunk) => (output += chunk));
    await untilAccepting(
      port,
      () => server?.exitCode === null,
      () => output,
    );
  };
  const halt = async () => {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGINT");
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
    clearTimeout(timer);
    if (running.exitCode === null) running.kill("SIGKILL");
  };

  await resume();
  return {
    port,
    halt,
    resume,
    async createDatabase() {
      const name = `enquiries_${(databases += 1)}`;
      const admin = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return `postgresql://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Bounded: 30 s for the server to accept a connection, or its output in the error. */
async function untilAccepting(port: number, alive: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (!alive() || Date.now() > deadline) {
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
