/**
 * What every part of the site's service reads its settings with: the environment at run time, the
 * error a wrong setting raises (the service refuses to start, naming it), and the parsers of the
 * settings' kinds.
 */
import fs from "node:fs";
import path from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * The environment at run time. Gatsby's function bundler replaces `process.env.X` with the value
 * at build time (and `process.env` itself with `{}`), which would bake SMTP credentials into the
 * build output and ignore the host's settings; reaching process through globalThis avoids that.
 */
export function runtimeEnv(): Env {
  return globalThis.process.env;
}

/** The nearest folder above `start` with a package.json: npm scripts and Gatsby run from there. */
export function findProjectRoot(start = process.cwd()): string {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(start);
  }
}

export function positiveIntegerSetting(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new ConfigError(`${name} must be a whole number above 0 (got "${raw}")`);
  return Number(raw);
}

export function flagSetting(name: string, raw: string | undefined): boolean {
  if (raw === undefined || /^(0|false|no)$/i.test(raw)) return false;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  throw new ConfigError(`${name} must be 1 or 0 (got "${raw}")`);
}
