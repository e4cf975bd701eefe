/**
 * The stored lines of a store, oldest first, for tests outside the receiver (the site's, the deploy's, the browsers').
 */
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../core/config";
import { type Env } from "../../service/env";
import { openStore } from "./open-store";
import { SQLITE_FILE } from "./sqlite-engine";
import { nodeSqlite } from "./sqlite-module";

/** Through the store the settings name (ENQUIRY_DATA_DIR, or DATABASE_URL). */
export async function readStoredLines(env: Env): Promise<object[]> {
  const store = openStore(loadConfig(env), { connections: 1 });
  try {
    return await store.storedLines();
  } finally {
    await store.close();
  }
}

/**
 * The same for a SQLite store, at once: browser tests and load tests read it between steps while
 * the service writes to it (WAL lets them). Touches nothing: [] when there is no store yet.
 */
export function readStoredLinesNow(dataDir: string): Array<Record<string, string>> {
  const file = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(file)) return [];
  const db = new (nodeSqlite().DatabaseSync)(file);
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'enquiries'").get();
    if (!hasTable) return [];
    const rows = db.prepare("SELECT data FROM enquiries ORDER BY received_at, seq").all() as Array<{ data: string }>;
    return rows.map((row) => JSON.parse(row.data) as Record<string, string>);
  } finally {
    db.close();
  }
}
