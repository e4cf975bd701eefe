/**
 * The erasure log (migrations/<engine>/010): every erasure, so that a backup put back forgets again
 * whom erasure removed after the backup was made ("replayed on restore", ./backup). It must keep the
 * store's promise that an erased address is nowhere on disk, so it holds no personal data: the time,
 * and the address only as a keyed hash, HMAC-SHA256 under ENQUIRY_ERASURE_KEY, a secret of the
 * owner's kept in /etc/cyrus/enquiry.env and, since it must outlive the server, with the backups'
 * identity (without the key, a hash cannot be told from any other; with it, only a guessed address
 * can be checked). The key's id (a hash of the key itself) says which key made an entry, so that a
 * restore with another key says so instead of replaying nothing.
 *
 * Without a key an erasure is made all the same (the person's right comes first) and logged without
 * a hash: a restore then counts it as one it cannot replay, and says what to do.
 *
 * The log travels in two ways: inside every backup (the table), and as a file beside the backups
 * (`enquiries erasure-log`, written with each backup): restoring backup N with the newest log
 * replays the erasures N lacks. Entries are told apart by a random id, not by time: an erasure whose
 * time was taken before a backup began may commit after its copy was taken.
 */
import crypto from "node:crypto";
import { isoTime, type Sql } from "./engine";

export interface ErasureEntry {
  /** A random id: which erasures a backup already holds. */
  entry: string;
  /** When it was made: an enquiry received later, from the same address, is not erased by its replay. */
  at: string;
  /** The id of the key that made the hash; undefined: no key was set. */
  keyId?: string;
  /** HMAC-SHA256 of the address (trimmed, lower case) under the key, hex; undefined: no key was set. */
  addressHash?: string;
}

const KEY_ID_INPUT = "cyrus enquiry erasure key id";

export const normalAddress = (email: string) => email.trim().toLowerCase();

/** The key's id: 16 hex digits of an HMAC of a fixed text (it tells keys apart, and gives nothing of the key). */
export function erasureKeyId(key: string): string {
  return crypto.createHmac("sha256", key).update(KEY_ID_INPUT).digest("hex").slice(0, 16);
}

export function addressHash(key: string, email: string): string {
  return crypto.createHmac("sha256", key).update(normalAddress(email)).digest("hex");
}

/** The entry of an erasure of this address now. */
export function erasureEntry(key: string | undefined, email: string, at: string): ErasureEntry {
  return {
    entry: crypto.randomUUID(),
    at,
    ...(key !== undefined && { keyId: erasureKeyId(key), addressHash: addressHash(key, email) }),
  };
}

export async function insertErasure(sql: Sql, entry: ErasureEntry): Promise<void> {
  await sql.run(
    "INSERT INTO erasure_log (entry, at, key_id, address_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (entry) DO NOTHING",
    [entry.entry, entry.at, entry.keyId ?? null, entry.addressHash ?? null],
  );
}

export async function readErasures(sql: Sql): Promise<ErasureEntry[]> {
  const rows = await sql.all<{ entry: string; at: unknown; key_id: string | null; address_hash: string | null }>(
    "SELECT entry, at, key_id, address_hash FROM erasure_log ORDER BY seq",
  );
  return rows.map((r) => ({
    entry: r.entry,
    at: isoTime(r.at),
    ...(r.key_id !== null && { keyId: r.key_id }),
    ...(r.address_hash !== null && { addressHash: r.address_hash }),
  }));
}

// The file: a comment, then one line per entry, oldest first: v1 <entry> <at> <key id|-> <hash|->.
const HEADER =
  "# cyrus enquiry store: erasure log (when, and the address as HMAC-SHA256 under ENQUIRY_ERASURE_KEY; no address)";
const LINE = /^v1 ([0-9a-f-]{36}) (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z) ([0-9a-f]{16}|-) ([0-9a-f]{64}|-)$/;

export function erasureLogLines(entries: ErasureEntry[]): string[] {
  return [HEADER, ...entries.map((e) => `v1 ${e.entry} ${e.at} ${e.keyId ?? "-"} ${e.addressHash ?? "-"}`)];
}

/** A log file's entries; an error naming the line when one is not an entry (a torn or foreign file). */
export function parseErasureLog(text: string, name: string): ErasureEntry[] {
  const entries: ErasureEntry[] = [];
  text.split("\n").forEach((line, index) => {
    if (line === "" || line.startsWith("#")) return;
    const match = LINE.exec(line);
    if (!match) throw new Error(`${name}, line ${index + 1}: not a line of an erasure log`);
    const [, entry, at, keyId, hash] = match as unknown as [string, string, string, string, string];
    // Both or neither: an entry is made with a key or without one.
    if ((keyId === "-") !== (hash === "-")) throw new Error(`${name}, line ${index + 1}: a key id without a hash`);
    entries.push({
      entry,
      at: new Date(at).toISOString(),
      ...(keyId !== "-" && { keyId, addressHash: hash }),
    });
  });
  return entries;
}
