/** The store the settings ask for: PostgreSQL when DATABASE_URL is set, SQLite in the data folder otherwise. */
import { type EnquiryConfig } from "../core/config";
import { postgresEngine } from "./postgres-engine";
import { SqlStore } from "./sql-store";
import { sqliteEngine, type SqliteOptions } from "./sqlite-engine";
import type { EnquiryStore } from "./store";

export interface StoreOptions extends SqliteOptions {
  /** PostgreSQL connections: a few for the service, 1 for a function instance (ENQUIRY_DATABASE_CONNECTIONS). */
  connections?: number;
  log?: Pick<Console, "warn">;
  /** The clock that names the files of lines an import set aside (./set-aside). */
  now?: () => number;
}

export function openStore(
  config: Pick<EnquiryConfig, "dataDir" | "databaseUrl" | "databaseConnections"> &
    Partial<Pick<EnquiryConfig, "migrationBounds">>,
  options: StoreOptions = {},
): EnquiryStore {
  const log = options.log ?? console;
  const engine = config.databaseUrl
    ? postgresEngine(config.databaseUrl, { connections: options.connections ?? config.databaseConnections, log })
    : sqliteEngine(config.dataDir, options);
  return new SqlStore(engine, config.dataDir, options.now, config.migrationBounds);
}
