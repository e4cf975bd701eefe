/** The store the settings ask for: PostgreSQL when DATABASE_URL is set, SQLite in the data folder otherwise. */
import { type EnquiryConfig } from "../core/config";
import type { Engine } from "./engine";
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

export type StoreConfig = Pick<EnquiryConfig, "dataDir" | "databaseUrl" | "databaseConnections"> &
  Partial<Pick<EnquiryConfig, "migrationBounds" | "erasureKey">>;

export function openStore(config: StoreConfig, options: StoreOptions = {}): EnquiryStore {
  return storeOver(settingsEngine(config, options), config, options);
}

export function settingsEngine(config: StoreConfig, options: StoreOptions = {}): Engine {
  const log = options.log ?? console;
  return config.databaseUrl
    ? postgresEngine(config.databaseUrl, { connections: options.connections ?? config.databaseConnections, log })
    : sqliteEngine(config.dataDir, options);
}

export function storeOver(engine: Engine, config: StoreConfig, options: StoreOptions = {}): SqlStore {
  return new SqlStore(engine, config.dataDir, options.now, config.migrationBounds, config.erasureKey);
}
