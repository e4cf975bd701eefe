/**
 * `npm run enquiries -- list [--undelivered] [--suspect] [--json]`, `-- retry [--channel …]`,
 * `-- status`, `-- not-spam <id>`, `-- erase --email <address>` and `-- export [--format csv|jsonl]`:
 * reading the stored enquiries, re-sending the ones not delivered, saying whether deliveries fail,
 * and clearing one the spam screening flagged, in the store the receiver uses (the same
 * ENQUIRY_DATA_DIR or DATABASE_URL); `-- invite`, `-- people`, `-- revoke` and `-- audit`: who may
 * use the inbox, and what they listed, viewed, exported and erased (../inbox/inbox-cli); `-- backup`,
 * `-- erasure-log`, `-- restore` and `-- replay-erasures`: a copy of the store, and putting one back
 * with the erasures made since (./backup-restore); `-- check` and `-- notify-operator`: what
 * deploy/server/doctor asks of the store, and its e-mail to the operator (./check, ./notify-operator).
 */
import type { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { loadConfig, type EnquiryConfig } from "../core/config";
import { runtimeEnv, type Env } from "../../service/env";
import { openStore } from "../store/open-store";
import type { EnquiryStore } from "../store/store";
import { purgeExpired } from "../core/retention";
import type { CliOutput } from "./cli-output";
import { backup, printErasureLog, replayErasures, restore } from "./backup-restore";
import { check } from "./check";
import { erase, exportAll, operatorAccount } from "./erase-export";
import { audit, invite, people, revoke } from "../inbox/inbox-cli";
import { formatTable, undeliveredChannels } from "./list-format";
import { notifyOperator } from "./notify-operator";
import { retry, status } from "./retry-status";

const USAGE = `usage: npm run enquiries -- <command>
  list [--undelivered] [--suspect] [--json]
                                  show stored enquiries and their delivery state; --suspect: only
                                  those the spam screening flagged (cleared ones say so)
  retry [--channel email|webhook|reply|all]
                                  send now every delivery that failed (for good too) or waits for its
                                  next attempt, on that channel (all: the default; reply: the inbox's
                                  replies to visitors); ids, no addresses
  status                          each channel's backlog and open alert; exit code 1 while one is
                                  failing (for cron or a monitor)
  not-spam <id>                   record that a flagged enquiry is not spam
  erase --email <address>         remove every enquiry from that address, its delivery records and
                                  the lines an import set aside that name it; exit code 1 if a copy
                                  may remain on disk for now (it says why); recorded in the audit
  export [--format csv|jsonl]     every enquiry on stdout, as CSV (the default) or JSON lines
  purge                           remove enquiries older than ENQUIRY_RETENTION_DAYS (as the service
                                  does daily; for cron where no service runs)
  invite <e-mail> --name "<name>" give a person access to the inbox: prints a one-time link, valid
                                  24 hours, and e-mails it when mail is set up
  people                          who has access to the inbox, who is invited, who was revoked
  revoke <e-mail>                 end that person's access and sign them out everywhere at once
  audit                           who listed or searched (the filters, not the words), viewed, exported
                                  or erased what in the inbox, changed a saved answer, and each erase
                                  here; oldest first
  backup --out FILE|-             a consistent copy of the store (SQLite: the database file; PostgreSQL:
                                  pg_dump's SQL) into a new file (mode 600), or on stdout
  erasure-log                     the erasure log on stdout: when each erasure was made, and the address
                                  only as a keyed hash (ENQUIRY_ERASURE_KEY); keep it with the backups
  restore FILE|- (--erasures LOG ... | --no-erasure-log) [--identity KEYFILE]
                                  put a backup into an empty store, migrate it, and replay the erasures
                                  of the logs that it lacks (made after it); --identity: the age identity
                                  or GPG secret key file of an encrypted backup
  replay-erasures --erasures LOG ...
                                  replay the erasures of the logs that the store's own log lacks
  check [--backup FILE|-]         whether the store answers, its migrations are this code's and the
                                  outbox delivers; --backup: whether that backup opens (restored into
                                  a temporary store, then removed); exit code 1 on a PROBLEM line
  notify-operator --subject <line>
                                  e-mail the text on stdin to the operator (ENQUIRY_ALERT_TO, else
                                  ENQUIRY_TO): doctor's lines, when it finds a problem; stored first,
                                  and retried (by the service, and retry) when the mail server fails`;

/** Each command and how many arguments it takes. */
const ARITY: Readonly<Record<string, number>> = {
  list: 0,
  retry: 0,
  status: 0,
  "not-spam": 1,
  erase: 0,
  export: 0,
  purge: 0,
  invite: 1,
  people: 0,
  revoke: 1,
  audit: 0,
  backup: 0,
  "erasure-log": 0,
  restore: 1,
  "replay-erasures": 0,
  check: 0,
  "notify-operator": 0,
};

const consoleOutput: CliOutput = { out: (l) => console.log(l), err: (l) => console.error(l) };

/**
 * Runs one command; resolves to the process exit code (retry: 1 if any delivery still fails; status:
 * 1 while a channel is failing). now: the clock of the outbox's schedule, the alerts, the
 * invitations and the audit (tests); stdin: what `-` reads (tests give their own).
 */
export async function runEnquiriesCli(
  argv: string[],
  env: Env = runtimeEnv(),
  io: CliOutput = consoleOutput,
  now: () => number = Date.now,
  stdin: Readable = process.stdin,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        undelivered: { type: "boolean" },
        suspect: { type: "boolean" },
        json: { type: "boolean" },
        email: { type: "string" },
        format: { type: "string" },
        channel: { type: "string" },
        name: { type: "string" },
        out: { type: "string" },
        erasures: { type: "string", multiple: true },
        "no-erasure-log": { type: "boolean" },
        identity: { type: "string" },
        backup: { type: "string" },
        subject: { type: "string" },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...args] = parsed.positionals;
  if (command === undefined || !Object.hasOwn(ARITY, command) || ARITY[command] !== args.length) {
    io.err(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  // Neither opens the store as the others do: check reads it without migrating; notify sends even
  // when the store cannot keep its notice, and does not make a SQLite store that is not there.
  if (command === "check") return await check(config, parsed.values.backup, io, now, stdin);
  if (command === "notify-operator") return await notifyOperator(config, parsed.values.subject, io, stdin, now);
  const store = openStore(config, { connections: 1, log: { warn: io.err } });
  try {
    if (command === "not-spam") return await notSpam(store, args[0]!, io);
    if (command === "erase") return await erase(store, parsed.values.email, io, operatorAccount(env), now);
    if (command === "export") return await exportAll(store, parsed.values.format ?? "csv", io);
    if (command === "purge") return await purge(store, config, io);
    if (command === "invite") return await invite(store, config, args[0]!, parsed.values.name, io, now);
    if (command === "people") return await people(store, io, now);
    if (command === "revoke") return await revoke(store, args[0]!, io, now);
    if (command === "audit") return await audit(store, io);
    if (command === "backup") return await backup(config, parsed.values.out, io, now);
    if (command === "erasure-log") return await printErasureLog(config, io);
    if (command === "restore") {
      const { erasures, identity } = parsed.values;
      const options = { erasures, identity, noErasureLog: parsed.values["no-erasure-log"] };
      return await restore(config, args[0]!, options, io, { operatorAccount: operatorAccount(env), now });
    }
    if (command === "replay-erasures") {
      return await replayErasures(config, parsed.values.erasures, io, { operatorAccount: operatorAccount(env), now });
    }
    if (command === "status") return await status(store, config, io, now);
    if (command === "retry") return await retry(store, config, parsed.values.channel ?? "all", io, now);
    return await list(store, parsed.values, io);
  } finally {
    await store.close();
  }
}

async function list(
  store: EnquiryStore,
  options: { undelivered?: boolean; suspect?: boolean; json?: boolean },
  io: CliOutput,
): Promise<number> {
  const { enquiries, damagedLines } = await store.list();
  const shown = enquiries
    .filter((e) => !options.undelivered || undeliveredChannels(e).length > 0)
    .filter((e) => !options.suspect || e.screening?.verdict === "suspect");
  if (options.json) shown.forEach((e) => io.out(JSON.stringify(e)));
  else {
    formatTable(shown).forEach((line) => io.out(line));
    if (options.undelivered) {
      const count = (channel: string) => shown.filter((e) => undeliveredChannels(e).includes(channel)).length;
      const channels = [...new Set(shown.flatMap(undeliveredChannels))].sort();
      if (channels.length > 0) io.out(`undelivered: ${channels.map((c) => `${c} ${count(c)}`).join(", ")}`);
    }
    const kinds = [options.undelivered && "undelivered", options.suspect && "suspect"].filter(Boolean).join(" ");
    const cleared = options.suspect ? shown.filter((e) => e.clearedAt !== undefined).length : 0;
    io.out(
      `${shown.length} ${kinds ? `${kinds} ` : ""}enquir${shown.length === 1 ? "y" : "ies"}${
        cleared > 0 ? ` (${cleared} cleared as not spam)` : ""
      } in ${store.where}`,
    );
  }
  if (damagedLines > 0) io.err(`warning: ${damagedLines} unreadable enquir(ies) skipped in ${store.where}`);
  return 0;
}

/** Records the review, once: marking a cleared enquiry again changes nothing. */
async function notSpam(store: EnquiryStore, id: string, io: CliOutput): Promise<number> {
  const { enquiries } = await store.list();
  const enquiry = enquiries.find((e) => e.id === id);
  if (!enquiry) {
    io.err(`no enquiry ${id} in ${store.where}`);
    return 1;
  }
  if (enquiry.screening?.verdict !== "suspect") {
    io.err(`enquiry ${id} was not flagged as possible spam: nothing to clear`);
    return 1;
  }
  if (enquiry.clearedAt !== undefined) {
    io.out(`enquiry ${id} was already cleared as not spam on ${enquiry.clearedAt}`);
    return 0;
  }
  await store.recordReview({ id, at: new Date().toISOString(), review: "not-spam" });
  io.out(`enquiry ${id} cleared as not spam (recorded in ${store.where})`);
  return 0;
}

async function purge(store: EnquiryStore, config: EnquiryConfig, io: CliOutput): Promise<number> {
  if (config.retentionDays === undefined) {
    io.err("ENQUIRY_RETENTION_DAYS is not set: every enquiry is kept");
    return 1;
  }
  let warned = false;
  const warn = (line: string) => {
    warned = true;
    io.err(`warning: ${line}`);
  };
  await purgeExpired(store, config.retentionDays, Date.now(), { info: io.out, warn });
  return warned ? 1 : 0;
}
