/**
 * The store's tests, once per engine: SQLite in a temporary folder, and PostgreSQL on a server of
 * the tests' own (../../support/postgres), a new database each time.
 */
import fs from "node:fs";
import { startPostgres, type TestPostgres } from "../../support/postgres";
import { openStore, type StoreOptions } from "../../../src/site-service/enquiries/store/open-store";
import type { EnquiryStore } from "../../../src/site-service/enquiries/store/store";
import { tempDir } from "./harness";

export type EngineName = "sqlite" | "postgres";
export const ENGINES: EngineName[] = ["sqlite", "postgres"];

export interface EngineUnderTest {
  /** The settings that choose this engine, with a data folder of their own. */
  env(): Promise<{ ENQUIRY_DATA_DIR: string; DATABASE_URL?: string }>;
  /** A store over settings from env() (several may share them, as instances would). */
  open(env: { ENQUIRY_DATA_DIR: string; DATABASE_URL?: string }, options?: StoreOptions): EnquiryStore;
  server(): TestPostgres | undefined;
  cleanUp(): Promise<void>;
}

/** Call in a describe: starts the server before its tests, stops it after. */
export function engineUnderTest(name: EngineName): EngineUnderTest {
  let server: TestPostgres | undefined;
  const dirs: string[] = [];
  const stores: EnquiryStore[] = [];
  beforeAll(async () => {
    if (name === "postgres") server = await startPostgres();
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);
  return {
    async env() {
      const dir = tempDir();
      dirs.push(dir);
      return name === "postgres"
        ? { ENQUIRY_DATA_DIR: dir, DATABASE_URL: await server!.createDatabase() }
        : { ENQUIRY_DATA_DIR: dir };
    },
    open(env, options = {}) {
      const store = openStore(
        { dataDir: env.ENQUIRY_DATA_DIR, databaseUrl: env.DATABASE_URL, databaseConnections: 4 },
        { log: { warn: () => undefined }, ...options },
      );
      stores.push(store);
      return store;
    },
    server: () => server,
    async cleanUp() {
      await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
