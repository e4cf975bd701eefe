/**
 * `enquiries backup --out FILE|-`, `erasure-log`, `restore FILE|- (--erasures LOG… | --no-erasure-log)
 * [--identity KEYFILE]` and `replay-erasures --erasures LOG…` (../store/backup). On a server the
 * timer runs the first two as the service's user through deploy/server/backup, which keeps what they
 * write (encrypted) in root's backup folder, and root's `backup restore` runs the third. What they
 * print names no one: the counts, the times, the store.
 */
import fs from "node:fs";
import { finished } from "node:stream/promises";
import type { EnquiryConfig } from "../core/config";
import { erasureLog, makeBackup, replayInto, restoreBackup, RestoreRefused, type Replay } from "../store/backup";
import { erasureLogLines, parseErasureLog, type ErasureEntry } from "../store/erasure-log";
import type { CliOutput } from "./cli-output";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function mebibytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

const NO_KEY =
  "ENQUIRY_ERASURE_KEY is not set: erasures are logged without a hash of the address, so a restore " +
  "cannot replay those made after its backup (set it to openssl rand -base64 32 in the service's " +
  "settings, and keep a copy with the backup's identity)";

/** To a new file (600), or to stdout (-) for deploy/server/backup; the summary then goes to stderr. */
export async function backup(
  config: EnquiryConfig,
  out: string | undefined,
  io: CliOutput,
  now: () => number,
): Promise<number> {
  if (!out) {
    io.err("backup needs --out FILE (a new file), or --out - for stdout");
    return 2;
  }
  const say = out === "-" ? io.err : io.out;
  let made;
  if (out === "-") {
    made = await makeBackup(config, process.stdout, now);
  } else {
    const file = fs.createWriteStream(out, { flags: "wx", mode: 0o600 });
    try {
      await new Promise((resolve, reject) => file.once("open", resolve).once("error", reject));
      made = await makeBackup(config, file, now);
      file.end();
      await finished(file);
      const fd = fs.openSync(out, "r");
      fs.fsyncSync(fd);
      fs.closeSync(fd);
    } catch (error) {
      file.destroy();
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") fs.rmSync(out, { force: true });
      throw error;
    }
  }
  say(
    `backup of ${made.where} (${made.engine}, schema version ${made.schemaVersion}) made at ${made.madeAt}: ` +
      `${mebibytes(made.bytes)}${out === "-" ? "" : ` in ${out}`}`,
  );
  if (config.erasureKey === undefined) io.err(`warning: ${NO_KEY}`);
  return 0;
}

export async function printErasureLog(config: EnquiryConfig, io: CliOutput): Promise<number> {
  erasureLogLines(await erasureLog(config)).forEach((line) => io.out(line));
  return 0;
}

/**
 * The entries of the logs named; undefined (and said) when one cannot be read. /dev/fd/N is read
 * from that descriptor itself, not opened again: deploy/server/backup hands the service's user root's
 * log on a pipe, which that user could not open by its name.
 */
function readLogs(files: string[], io: CliOutput): ErasureEntry[] | undefined {
  try {
    return files.flatMap((file) => {
      const fd = /^\/dev\/fd\/(\d+)$/.exec(file)?.[1];
      return parseErasureLog(fs.readFileSync(fd === undefined ? file : Number(fd), "utf8"), file);
    });
  } catch (error) {
    io.err(`${(error as Error).message}; nothing was changed`);
    return undefined;
  }
}

export async function restore(
  config: EnquiryConfig,
  file: string,
  options: { erasures?: string[]; noErasureLog?: boolean; identity?: string },
  io: CliOutput,
  by: { operatorAccount: string; now: () => number },
): Promise<number> {
  const logs = options.erasures ?? [];
  if (logs.length === 0 && !options.noErasureLog) {
    io.err(
      "restore needs the newest erasure log (--erasures FILE: erasures.log beside the backups), so that " +
        "erasures made after the backup are made again; --no-erasure-log restores without one",
    );
    return 2;
  }
  const erasures = readLogs(logs, io);
  if (!erasures) return 1;
  let restored;
  try {
    restored = await restoreBackup(config, file === "-" ? process.stdin : file, {
      erasures,
      identity: options.identity,
      by: { at: new Date(by.now()).toISOString(), operatorAccount: by.operatorAccount },
    });
  } catch (error) {
    if (!(error instanceof RestoreRefused)) throw error;
    io.err(error.message);
    return 1;
  }
  const made = restored.madeAt ? `the backup made at ${restored.madeAt}` : "the backup (its time unknown)";
  const migrated = restored.schemaVersion !== restored.schemaFrom ? `, migrated to ${restored.schemaVersion}` : "";
  io.out(
    `restored ${made} (schema version ${restored.schemaFrom}${migrated}) into ${restored.where}: ` +
      `${plural(restored.enquiries, "enquiry", "enquiries")}, ${plural(restored.people, "person", "people")} of the inbox`,
  );
  const code = sayReplay(restored.replay, logs.length > 0, io);
  const { sessions, invitations } = restored.ended;
  io.out(
    `ended ${plural(sessions, "session", "sessions")} and ${plural(invitations, "unused invitation", "unused invitations")} ` +
      "of the backup: everyone signs in again; access revoked after the backup is not revoked in it (npm run enquiries -- people)",
  );
  if (restored.incomplete) io.err(`warning: ${restored.incomplete}`);
  return restored.incomplete ? 1 : code;
}

export async function replayErasures(
  config: EnquiryConfig,
  files: string[] | undefined,
  io: CliOutput,
  by: { operatorAccount: string; now: () => number },
): Promise<number> {
  if (!files?.length) {
    io.err("replay-erasures needs --erasures FILE (an erasure log: erasures.log beside the backups)");
    return 2;
  }
  const erasures = readLogs(files, io);
  if (!erasures) return 1;
  const replay = await replayInto(config, erasures, {
    at: new Date(by.now()).toISOString(),
    operatorAccount: by.operatorAccount,
  });
  io.out(`in ${replay.where}:`);
  const code = sayReplay(replay, true, io);
  if (replay.incomplete) io.err(`warning: ${replay.incomplete}`);
  return replay.incomplete ? 1 : code;
}

/** The replay's line, and a warning for each kind of erasure it could not make: exit code 1 then. */
function sayReplay(replay: Replay, logGiven: boolean, io: CliOutput): number {
  if (!logGiven) io.out("no erasure log given: only the erasures made before the backup are in it");
  else if (replay.pending === 0) io.out("erasures made after the backup: none in the log");
  else {
    io.out(
      `erasures made after the backup: ${replay.replayed} of ${replay.pending} replayed, removing ` +
        plural(replay.enquiries, "enquiry", "enquiries"),
    );
  }
  if (replay.withoutKey > 0) {
    io.err(
      `warning: ${plural(replay.withoutKey, "erasure", "erasures")} made after the backup ${replay.withoutKey === 1 ? "was" : "were"} ` +
        "logged without a hash (ENQUIRY_ERASURE_KEY was not set then) and cannot be replayed: erase " +
        "those addresses again (npm run enquiries -- erase --email …), from the requests you were sent",
    );
  }
  if (replay.otherKey > 0) {
    io.err(
      `warning: ${plural(replay.otherKey, "erasure", "erasures")} made after the backup ${replay.otherKey === 1 ? "was" : "were"} ` +
        "logged under another ENQUIRY_ERASURE_KEY than the one set now (or none is set): set the key they " +
        "were made with, then run npm run enquiries -- replay-erasures --erasures <the log>",
    );
  }
  return replay.withoutKey + replay.otherKey > 0 ? 1 : 0;
}
