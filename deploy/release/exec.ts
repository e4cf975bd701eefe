/**
 * Child processes of a release: their output goes to the release's own output as it comes (an
 * operator watches a build) and to the attempt's log (release-log.ts), and its end is kept for the
 * error message. The status file gets none of it (status.ts).
 */
import { spawn } from "node:child_process";
import { currentLog, maskCredentials } from "./release-log";

export interface Outcome {
  code: number;
  /** The last 64 KiB of stdout and stderr together. */
  output: string;
}

export class StepError extends Error {
  constructor(
    readonly step: string,
    message: string,
    /** The command's output (its last 64 KiB), when a command failed: the content check's whole report. */
    readonly output?: string,
  ) {
    super(message);
  }
}

const KEEP = 64 * 1024;
// nginx and systemctl live in sbin, which a non-root user's PATH often leaves out.
const PATH_EXTRA = ":/usr/local/sbin:/usr/sbin:/sbin";

export function run(
  command: string,
  args: string[],
  /** `shown`: the command line as the log gives it, when the real one says too little (or too much). */
  options: { cwd?: string; env?: NodeJS.ProcessEnv; quiet?: boolean; shown?: string } = {},
): Promise<Outcome> {
  const env = { ...(options.env ?? process.env) };
  env.PATH = `${env.PATH ?? "/usr/bin:/bin"}${PATH_EXTRA}`;
  // tsx keeps transpiled code in <tmp>/tsx-<uid> and runs what it finds there without looking at
  // who made it: outside the units' PrivateTmp (a release run by hand), another user could plant it.
  env.TSX_DISABLE_CACHE = "1";
  const log = currentLog();
  log?.write(`$ ${maskCredentials(options.shown ?? [command, ...args].join(" "))}\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const take = (chunk: Buffer) => {
      if (!options.quiet) process.stdout.write(chunk);
      // Quiet or not: the log is for finding out what happened.
      log?.write(chunk);
      output = (output + chunk.toString()).slice(-KEEP);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (error) => {
      log?.write(`${error.message}\n`);
      resolve({ code: 127, output: `${output}${error.message}` });
    });
    child.on("close", (code, signal) => {
      if (code !== 0) log?.write(`(exit ${code ?? signal})\n`);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/** A configured shell command with {placeholders} filled in (values are paths and ids, quoted). */
export const fillCommand = (template: string, values: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? `'${(values[key] ?? "").replace(/'/g, "'\\''")}'` : whole,
  );

/** fillCommand's command, run by sh. */
export function shell(
  template: string,
  values: Record<string, string>,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): Promise<Outcome> {
  return run("sh", ["-c", fillCommand(template, values)], options);
}

/** Runs and throws a StepError with the output's end when the command fails. */
export async function must(step: string, pending: Promise<Outcome>): Promise<Outcome> {
  const outcome = await pending;
  if (outcome.code !== 0)
    throw new StepError(step, lastLines(outcome.output, 40) || `exit code ${outcome.code}`, outcome.output);
  return outcome;
}

export const lastLines = (text: string, count: number): string => text.trimEnd().split("\n").slice(-count).join("\n");
