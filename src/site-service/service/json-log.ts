/** Structured logging: one JSON object per line (stdout by default). */
import type { Logger } from "../enquiries/core/receiver";

export type Level = "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | undefined>;

export interface JsonLog {
  (level: Level, msg: string, fields?: LogFields): void;
  /** The same log in the shape the receiver expects (console-like). */
  receiverLogger: Logger;
}

export function jsonLog(write: (line: string) => void = (line) => void process.stdout.write(line)): JsonLog {
  const log = ((level, msg, fields = {}) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  }) as JsonLog;
  const text = (args: unknown[]) =>
    args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ");
  log.receiverLogger = {
    info: (...args: unknown[]) => log("info", text(args)),
    warn: (...args: unknown[]) => log("warn", text(args)),
    error: (...args: unknown[]) => log("error", text(args)),
  };
  return log;
}
