/**
 * The engine for several instances and function hosts: PostgreSQL at DATABASE_URL through `pg`.
 * A pool per process (the service: a few connections; a function instance: one, reused across
 * invocations, since each instance of a function host would otherwise hold a pool of its own).
 */
import pg from "pg";
import type { Engine, Sql, SqlValue } from "./engine";
import { gate } from "./gate";

export interface PostgresOptions {
  /** Connections in the pool: 1 on a function host. */
  connections: number;
  log: Pick<Console, "warn">;
}

export function postgresEngine(url: string, options: PostgresOptions): Engine {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.connections,
    // An unreachable server must turn into the storage-failure answer within the visitor's patience
    // (and nginx's 30 s), not hang the request.
    connectionTimeoutMillis: 5_000,
    query_timeout: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection the server dropped (a restart) is replaced on the next query; without this
  // listener its error would end the process.
  pool.on("error", (error) => options.log.warn(`enquiry store: PostgreSQL connection lost: ${error.message}`));

  const turn = gate(options.connections);
  const over = (client: pg.Pool | pg.PoolClient): Sql => ({
    all: async <Row>(statement: string, values: readonly SqlValue[] = []) =>
      (await client.query(statement, values as SqlValue[])).rows as Row[],
    run: async (statement, values = []) => (await client.query(statement, values as SqlValue[])).rowCount ?? 0,
    exec: async (script) => void (await client.query(script)),
  });

  const pooled = over(pool);
  /** One transaction on a connection of its own (the caller holds a turn). */
  async function transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    // The server may end the connection between two statements (a restart): the client then emits
    // "error", which with no listener would end the process. The next statement fails instead.
    const lost = (error: Error) => (broken = error);
    client.on("error", lost);
    try {
      await client.query("BEGIN");
      const result = await fn(over(client));
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((e: Error) => (broken = e));
      throw error;
    } finally {
      // A connection lost, or that could not even roll back, is dropped, not returned to the pool.
      client.off("error", lost);
      client.release(broken);
    }
  }

  return {
    kind: "postgres",
    where: describeUrl(url),
    all: (statement, values) => turn(() => pooled.all(statement, values)),
    run: (statement, values) => turn(() => pooled.run(statement, values)),
    exec: (script) => turn(() => pooled.exec(script)),
    async open() {
      const [row] = await turn(() => pooled.all<{ version: string }>("SHOW server_version"));
      return `PostgreSQL ${row?.version ?? "?"}, ${options.connections} connection(s)`;
    },
    transaction: (fn) => turn(() => transaction(fn)),
    async lock(sql, name) {
      await sql.all("SELECT pg_advisory_xact_lock(hashtext($1))", [name]);
    },
    // Dead tuples, the server's WAL and its archives are the server's (docs/enquiries.md, "Erasure on disk").
    scrub: async () => undefined,
    close: () => pool.end(),
  };
}

/** host:port/database, for messages: never the user's password. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `postgresql://${u.host || u.searchParams.get("host") || "localhost"}${u.pathname}`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}
