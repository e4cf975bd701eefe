/**
 * A rollback and the store's schema: the code of the release rolled back to runs against the database
 * that the live release's code has migrated. Each release ships its migrations as files, so the rule
 * compares them: a rollback to a release that lacks one the live release has is refused, naming it,
 * unless that migration says the target's code can still use the database it leaves (its
 * `-- compatible-from: N`, N no newer than the target's own newest migration: additive changes, which
 * the store's code checks the same way at its start). --force rolls back anyway (docs/server-reference.md,
 * "cyrus release").
 */
import fs from "node:fs";
import path from "node:path";
import { paths, type ReleaseInfo } from "./layout";

// Where the store's migrations are in a release's checkout: now, and before the service moved.
const MIGRATION_DIRS = ["src/site-service/enquiries/store/migrations", "src/enquiry-receiver/store/migrations"];
// The pattern the store's own migrations.ts reads (not imported: the service's internals stay its own).
const MIGRATION = /^(\d{3})-[a-z0-9-]+\.sql$/;
const COMPATIBLE_FROM = /^--\s*compatible-from:\s*(\d+)\s*$/m;

/** The migrations a release ships (<engine>/NNN-name.sql), as "<engine>/<NNN>" → "<engine>/<file>". */
export function migrations(releaseDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const dir = MIGRATION_DIRS.map((d) => path.join(releaseDir, d)).find((d) => fs.existsSync(d));
  if (!dir) return found;
  for (const engine of fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const name of fs.readdirSync(path.join(dir, engine.name))) {
      const version = MIGRATION.exec(name)?.[1];
      if (version) found.set(`${engine.name}/${version}`, `${engine.name}/${name}`);
    }
  }
  return found;
}

/**
 * Why a rollback from `live` to `target` is refused, if it is: the live release's code has migrated
 * (or will migrate, at its next start) the store's schema past what the target's code was written for.
 */
export function schemaRefusal(root: string, live: ReleaseInfo, target: ReleaseInfo): string | undefined {
  const { releases } = paths(root);
  const theirs = migrations(path.join(releases, target.id));
  const newestOf = (engine: string) =>
    Math.max(
      0,
      ...[...theirs.keys()].filter((key) => key.startsWith(`${engine}/`)).map((key) => Number(key.split("/")[1])),
    );
  const liveDir = MIGRATION_DIRS.map((d) => path.join(releases, live.id, d)).find((d) => fs.existsSync(d));
  /** The oldest schema version whose code can use the database the migration leaves (its own, unless it says). */
  const compatibleFrom = (file: string) => {
    const declared = liveDir ? COMPATIBLE_FROM.exec(fs.readFileSync(path.join(liveDir, file), "utf8"))?.[1] : undefined;
    return declared === undefined ? Number(/\/(\d{3})-/.exec(file)![1]) : Number(declared);
  };
  const missing = [...migrations(path.join(releases, live.id))].filter(
    ([key, file]) => !theirs.has(key) && compatibleFrom(file) > newestOf(key.split("/")[0]!),
  );
  if (missing.length === 0) return undefined;
  return (
    `refusing to roll back to ${target.id} (${target.title}): the live release ${live.id} has the store's ` +
    `migration ${missing.map(([, file]) => file).join(", ")}, which that release's code does not have, and the ` +
    "database may already be migrated past what its code was written for. Release a fix instead, or roll back " +
    "anyway with npm run release -- --rollback --force (you then take that risk)."
  );
}
