/**
 * `npm run enquiries -- list [--undelivered] [--json]` and `npm run enquiries -- retry`: reading
 * the stored enquiries and re-sending the ones not delivered, from the data folder the receiver uses.
 */
import { parseArgs } from "node:util";
import { loadConfig, missingMailSettings, runtimeEnv, type Env } from "../core/config";
import { retryUndelivered } from "../mail/deliver";
import { createMailer } from "../mail/mailer";
import { EnquiryStore } from "../store/store";
import { formatTable } from "./list-format";

export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = `usage: npm run enquiries -- <command>
  list [--undelivered] [--json]   show stored enquiries and their delivery state
  retry                           e-mail again every enquiry whose delivery failed or never finished`;

const consoleOutput: CliOutput = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** Runs one command; resolves to the process exit code (retry: 1 if any enquiry still fails). */
export async function runEnquiriesCli(
  argv: string[],
  env: Env = runtimeEnv(),
  io: CliOutput = consoleOutput,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { undelivered: { type: "boolean" }, json: { type: "boolean" } },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...extra] = parsed.positionals;
  if ((command !== "list" && command !== "retry") || extra.length > 0) {
    io.err(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const store = new EnquiryStore(config.dataDir);
  return command === "list"
    ? list(store, parsed.values, io)
    : retry(store, createMailer(config), missingMailSettings(config), io);
}

async function list(
  store: EnquiryStore,
  options: { undelivered?: boolean; json?: boolean },
  io: CliOutput,
): Promise<number> {
  const { enquiries, damagedLines } = await store.list();
  const shown = options.undelivered
    ? enquiries.filter((e) => e.delivery === "pending" || e.delivery === "failed")
    : enquiries;
  if (options.json) shown.forEach((e) => io.out(JSON.stringify(e)));
  else {
    formatTable(shown).forEach((line) => io.out(line));
    io.out(
      `${shown.length} ${options.undelivered ? "undelivered " : ""}enquir${shown.length === 1 ? "y" : "ies"} in ${store.enquiriesFile}`,
    );
  }
  if (damagedLines > 0) io.err(`warning: ${damagedLines} unreadable line(s) skipped in ${store.dir}`);
  return 0;
}

async function retry(
  store: EnquiryStore,
  mailer: ReturnType<typeof createMailer>,
  missing: string[],
  io: CliOutput,
): Promise<number> {
  if (!mailer) {
    io.err(`cannot re-send: ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set`);
    return 1;
  }
  const { delivered, failed, skipped } = await retryUndelivered(store, mailer);
  delivered.forEach((e) => io.out(`delivered  ${e.id}  ${e.receivedAt}  ${e.email}`));
  failed.forEach((e) => io.err(`failed     ${e.id}  ${e.receivedAt}  ${e.email}: ${e.error}`));
  if (skipped.length > 0) {
    io.out(
      `${skipped.length} pending enquir${skipped.length === 1 ? "y" : "ies"} received in the last 2 minutes left alone (may still be under way); run retry again later`,
    );
  }
  io.out(`retry: ${delivered.length} delivered, ${failed.length} still failing`);
  return failed.length > 0 ? 1 : 0;
}
