/**
 * What the store needs of a database, so that its SQL is written once for both engines: statements
 * use $1, $2, … (PostgreSQL's placeholders; the SQLite engine rewrites them), rows come back as
 * plain objects with times as ISO strings and JSON columns as text or parsed values.
 */
export type SqlValue = string | number | null;

export interface Sql {
  all<Row = Record<string, unknown>>(statement: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Resolves with the number of rows changed. */
  run(statement: string, params?: readonly SqlValue[]): Promise<number>;
  /** Several statements without parameters (a migration file). */
  exec(script: string): Promise<void>;
}

/** Limits of a transaction's statements, on PostgreSQL, in milliseconds. */
export interface TransactionBounds {
  /** How long a statement may wait for a lock (lock_timeout): an advisory lock, a table's lock. */
  lockTimeoutMs: number;
  /** How long a statement may run, its lock waits included (statement_timeout). */
  statementTimeoutMs: number;
}

export interface Engine extends Sql {
  readonly kind: "sqlite" | "postgres";
  /** For messages: the file, or the server and database (never a password). */
  readonly where: string;
  /** Connects and checks the settings durability depends on; resolves with what was checked. */
  open(): Promise<string>;
  /**
   * One transaction, committed when fn resolves, rolled back when it throws. bounds: its own limits
   * (the migrations'), instead of the ones every statement has (PostgreSQL; SQLite ignores them).
   */
  transaction<T>(fn: (sql: Sql) => Promise<T>, bounds?: TransactionBounds): Promise<T>;
  /**
   * Within a transaction: holds off every other transaction that asks for the same name until this
   * one ends, across processes (SQLite's BEGIN IMMEDIATE already serialises all writers).
   */
  lock(sql: Sql, name: string): Promise<void>;
  /**
   * After rows were deleted (erasure, retention): makes sure no copy of them is left in the files the
   * engine controls. Resolves with what could not be done, in words, or undefined when done.
   */
  scrub(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** A time column as the ISO string the rest of the receiver uses. */
export function isoTime(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** A JSON column: SQLite gives text, pg parses json itself. */
export function jsonValue(value: unknown): unknown {
  return typeof value === "string" ? (JSON.parse(value) as unknown) : value;
}
