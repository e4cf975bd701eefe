/**
 * Builds the fixture site (.fixture-site/: a copy of the project with a service and a page of every
 * section type added, see __tests__/support/fixture-site.ts) unless it is up to date, as
 * ensure-build.ts does for public/.
 */
import { ensureFixtureSite } from "../__tests__/support/fixture-site";

ensureFixtureSite().then(
  () => undefined,
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
