/**
 * For the enquiry store's benchmark only (tools/bench/enquiry-store.ts, through the public entry):
 * the store the settings name, opened (migrated, the JSON-lines files in the data folder imported,
 * which is how the benchmark fills it quickly), and, to measure what secure_delete costs, the same
 * store with it set off on the store's own SQLite connection after it opened. Nothing in the
 * service calls this and no setting reaches it: the engine itself always sets it on (./sqlite-engine).
 */
import { loadConfig } from "../core/config";
import type { Env } from "../../service/env";
import { settingsEngine, storeOver } from "./open-store";
import type { EnquiryStore, StoreReport } from "./store";

export interface BenchStoreOptions {
  /** false: PRAGMA secure_delete = OFF on the SQLite connection, checked; SQLite only. */
  secureDelete?: boolean;
}

export async function openBenchStore(
  env: Env,
  options: BenchStoreOptions = {},
): Promise<{ store: EnquiryStore; report: StoreReport }> {
  const config = loadConfig(env);
  const engine = settingsEngine(config, { connections: 1 });
  const store = storeOver(engine, config);
  try {
    const report = await store.ready();
    if (options.secureDelete === false) {
      if (engine.kind !== "sqlite") throw new Error("secure_delete is SQLite's: nothing to turn off on PostgreSQL");
      await engine.exec("PRAGMA secure_delete = OFF");
      const [row] = await engine.all<{ secure_delete: number }>("PRAGMA secure_delete");
      if (row?.secure_delete !== 0) throw new Error(`${engine.where}: secure_delete stayed ${row?.secure_delete}`);
    }
    return { store, report };
  } catch (error) {
    await store.close();
    throw error;
  }
}
