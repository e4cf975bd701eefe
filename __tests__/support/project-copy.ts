/**
 * A copy of the project in a temporary folder, to change, break on purpose and run Gatsby in
 * (`gatsby build`, `gatsby develop`): the real files are never touched. node_modules (and the editing
 * studio's package, whose build is part of the site's and writes only into public/admin) are links.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "./serve";

/** What a build reads, copied. */
export const PROJECT_FILES = [
  "src",
  "plugins",
  "data",
  "static",
  "gatsby-config.ts",
  "gatsby-node.ts",
  "gatsby-ssr.tsx",
  "package.json",
  "tsconfig.json",
];

export function copyProject(prefix = "cyrus-copy-"): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  copyProjectInto(root);
  return root;
}

/**
 * Copies what a build reads into `root`, replacing what an earlier copy left there; whatever else
 * it holds (an earlier build's .cache/ and public/) stays, for Gatsby to reuse.
 */
export function copyProjectInto(root: string): void {
  fs.mkdirSync(root, { recursive: true });
  for (const entry of PROJECT_FILES) {
    fs.rmSync(path.join(root, entry), { recursive: true, force: true });
    fs.cpSync(path.join(projectRoot, entry), path.join(root, entry), {
      recursive: true,
      // The GraphQL types a build wrote into src/ are the build's, not the copy's.
      filter: (source) => path.basename(source) !== "gatsby-types.d.ts",
    });
  }
  for (const link of ["node_modules", "admin"]) {
    fs.rmSync(path.join(root, link), { recursive: true, force: true });
    fs.symlinkSync(path.join(projectRoot, link), path.join(root, link), "dir");
  }
}

/** Changes one file of the copy, as an editor's save does. */
export function editFile(root: string, file: string, change: (text: string) => string): void {
  const abs = path.join(root, file);
  const before = fs.readFileSync(abs, "utf8");
  const after = change(before);
  if (after === before) throw new Error(`editFile: the change left ${file} as it was`);
  fs.writeFileSync(abs, after);
}

export interface GatsbyRun {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  exited: Promise<number | null>;
  /** Ends it and every process it started (its process group), within a bounded time. */
  stop: () => Promise<void>;
}

/** Runs the copy's Gatsby CLI in its own process group. */
export function runGatsby(root: string, args: string[]): GatsbyRun {
  const child = spawn(process.execPath, [path.join(root, "node_modules/gatsby/cli.js"), ...args], {
    cwd: root,
    // GATSBY_LOGGER: the terminal an editor sees; under CI Gatsby would pick its plain logger, which
    // prints an error's text without its heading.
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1", GATSBY_LOGGER: "ink", NODE_ENV: undefined },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // already gone
      }
    };
    signal("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 10_000))),
    ]);
    clearTimeout(timer);
    // Whatever is left of the group (webpack, workers).
    signal("SIGKILL");
    if (!ended) await exited;
  };
  return { child, output: () => output, exited, stop };
}

/**
 * Gatsby's terminal output without colours, and with its line wrapping undone (runs of spaces and line breaks as one
 * space).
 */
export const plainText = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex -- ANSI escape sequences
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, "")
    .replace(/\s+/g, " ");

/** Polls `condition` every `interval` ms until it holds; fails after `ms` with `what`. */
export async function waitFor<T>(
  what: string,
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  ms: number,
  interval = 250,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Runs a Gatsby command in the copy to its end (killed after `timeoutMs`): exit code, output and seconds. */
export async function gatsbyToEnd(
  root: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = Date.now();
  const run = runGatsby(root, args);
  const timer = setTimeout(() => void run.stop(), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  await run.stop();
  return { code, output: run.output(), seconds: (Date.now() - started) / 1000 };
}
