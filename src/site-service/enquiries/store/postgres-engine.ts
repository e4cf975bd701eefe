/**
 * The engine for several instances and function hosts: PostgreSQL at DATABASE_URL through `pg`.
 * A pool per process (the service: a few connections; a function instance: one, reused across
 * invocations, since each instance of a function host would otherwise hold a pool of its own).
 */
import pg from "pg";
import type { Engine, Sql, SqlValue, TransactionBounds } from "./engine";
import { gate } from "./gate";

/** The server's bound on any lock wait outside a transaction with bounds of its own (the migrations'). */
export const LOCK_TIMEOUT_MS = 5_000;

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
    // A wait for a lock (two copies of one enquiry: the duplicate rule's advisory lock) is ended by
    // the server itself, well within the 10 s above, with an error that names it.
    lock_timeout: LOCK_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection the server dropped (a restart) is replaced on the next query; without this
  // listener its error would end the process.
  pool.on("error", (error) => options.log.warn(`enquiry store: PostgreSQL connection lost: ${error.message}`));

  const turn = gate(options.connections);
  // query_timeout: the client's own bound on a statement (the pool's 10 s unless a transaction has its own).
  // (pg reads query_timeout from a query's config; its types do not list it.)
  const over = (client: pg.Pool | pg.PoolClient, queryTimeout?: number): Sql => {
    const query = (text: string, values: readonly SqlValue[] = []) => {
      const config: pg.QueryConfig<SqlValue[]> & { query_timeout?: number } = {
        text,
        values: values as SqlValue[],
        ...(queryTimeout !== undefined && { query_timeout: queryTimeout }),
      };
      return client.query(config);
    };
    return {
      all: async <Row>(text: string, values?: readonly SqlValue[]) => (await query(text, values)).rows as Row[],
      run: async (text, values) => (await query(text, values)).rowCount ?? 0,
      exec: async (text) => void (await query(text)),
    };
  };

  const pooled = over(pool);
  /** One transaction on a connection of its own (the caller holds a turn). */
  async function transaction<T>(fn: (sql: Sql) => Promise<T>, bounds?: TransactionBounds): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    // The server may end the connection between two statements (a restart): the client then emits
    // "error", which with no listener would end the process. The next statement fails instead.
    const lost = (error: Error) => (broken = error);
    client.on("error", lost);
    try {
      await client.query("BEGIN");
      if (bounds) {
        // The server's limits for this transaction only; the client's, a little longer, for a server
        // that does not answer at all.
        await client.query("SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $2, true)", [
          `${bounds.lockTimeoutMs}ms`,
          `${bounds.statementTimeoutMs}ms`,
        ]);
      }
      const result = await fn(over(client, bounds && bounds.statementTimeoutMs + 5_000));
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
    transaction: (fn, bounds) => turn(() => transaction(fn, bounds)),
    async lock(sql, name) {
      await sql.all("SELECT pg_advisory_xact_lock(hashtext($1))", [name]);
    },
    // Dead tuples, the server's WAL and its archives are the server's (docs/enquiry-store.md, "Erasure on disk").
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
