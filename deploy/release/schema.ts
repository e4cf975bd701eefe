/**
 * A rollback and the store's schema: the code of the release rolled back to runs against the database
 * that the live release's code has migrated. Each release ships its migrations as files, so the rule
 * compares them: a rollback to a release that lacks one the live release has is refused, naming it
 * (--force rolls back anyway; docs/deployment.md, "Releases").
 */
import fs from "node:fs";
import path from "node:path";
import { paths, type ReleaseInfo } from "./layout";

// Where the store's migrations are in a release's checkout: now, and before the service moved.
const MIGRATION_DIRS = ["src/site-service/enquiries/store/migrations", "src/enquiry-receiver/store/migrations"];
// The pattern the store's own migrations.ts reads (not imported: the service's internals stay its own).
const MIGRATION = /^(\d{3})-[a-z0-9-]+\.sql$/;

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
  const missing = [...migrations(path.join(releases, live.id))].filter(([key]) => !theirs.has(key));
  if (missing.length === 0) return undefined;
  return (
    `refusing to roll back to ${target.id} (${target.title}): the live release ${live.id} has the store's ` +
    `migration ${missing.map(([, file]) => file).join(", ")}, which that release's code does not have, and the ` +
    "database may already be migrated past what its code was written for. Release a fix instead, or roll back " +
    "anyway with npm run release -- --rollback --force (you then take that risk)."
  );
}
