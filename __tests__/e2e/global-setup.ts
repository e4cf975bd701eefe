/**
 * Serves the built public/ twice with `gatsby serve` (production mode, with the site's Functions)
 * on free 127.0.0.1 ports, each with its own temporary enquiry folder:
 *
 * - the site the tests browse (E2E_BASE_URL), whose receiver stores enquiries in E2E_ENQUIRY_DIR,
 *   with a rate limit high enough for the whole run;
 * - a second instance (E2E_REFUSING_URL) whose receiver takes one enquiry per client an hour
 *   (ENQUIRY_RATE_LIMIT=1), so the form's error path meets a real refusal (429), not a mock.
 *
 * - the fixture site's build (E2E_FIXTURE_URL), a page of every section type among its pages
 *   (__tests__/support/fixture-site.ts), when it is up to date; else added-page.spec.ts skips, saying why.
 *
 * Workers inherit these variables. The returned function stops the servers and deletes the folders.
 *
 * When the first four variables are already set, the tests run against those servers instead and
 * nothing is started: `npm run test:e2e:nginx` (__tests__/deploy/support/with-stack.ts) sets them,
 * and E2E_FIXTURE_URL, to nginx and the standalone enquiry service.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fixtureRoot, fixtureSiteProblem } from "../support/fixture-site";
import { projectRoot, serveBuiltSite, type RunningSite } from "../support/serve";

// No mail from the tests, whatever the shell that runs them has set.
const noMail = { SMTP_URL: "", ENQUIRY_TO: "", ENQUIRY_AWAIT_DELIVERY: "0" };

const provided = ["E2E_BASE_URL", "E2E_ENQUIRY_DIR", "E2E_REFUSING_URL", "E2E_REFUSING_ENQUIRY_DIR"];

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (provided.every((name) => process.env[name])) {
    console.log(
      `Testing the servers given: ${process.env.E2E_BASE_URL} and, refusing, ${process.env.E2E_REFUSING_URL}`,
    );
    return async () => {};
  }
  if (!fs.existsSync(path.join(projectRoot, "public", "index.html"))) {
    throw new Error(
      "public/ has not been built: run `npm run test:e2e` (it builds when needed) or `npm run build` first",
    );
  }
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-e2e-"));
  const enquiryDir = path.join(dataRoot, "site");
  const refusingDir = path.join(dataRoot, "refusing");
  const running: RunningSite[] = [];
  const teardown = async () => {
    await Promise.all(running.map((site) => site.stop()));
    fs.rmSync(dataRoot, { recursive: true, force: true });
  };
  try {
    // One after the other, so that the two free-port look-ups cannot race.
    const site = await serveBuiltSite({ ...noMail, ENQUIRY_DATA_DIR: enquiryDir, ENQUIRY_RATE_LIMIT: "100000" });
    running.push(site);
    const refusing = await serveBuiltSite({
      ...noMail,
      ENQUIRY_DATA_DIR: refusingDir,
      ENQUIRY_RATE_LIMIT: "1",
      ENQUIRY_RATE_WINDOW_SECONDS: "3600",
    });
    running.push(refusing);
    process.env.E2E_BASE_URL = site.origin;
    process.env.E2E_ENQUIRY_DIR = enquiryDir;
    process.env.E2E_REFUSING_URL = refusing.origin;
    process.env.E2E_REFUSING_ENQUIRY_DIR = refusingDir;
    const fixtureProblem = fixtureSiteProblem();
    if (!fixtureProblem) {
      const fixture = await serveBuiltSite(
        { ...noMail, ENQUIRY_DATA_DIR: path.join(dataRoot, "fixture") },
        fixtureRoot,
      );
      running.push(fixture);
      process.env.E2E_FIXTURE_URL = fixture.origin;
    }
    console.log(
      fixtureProblem ? `No fixture site: ${fixtureProblem}` : `The fixture site at ${process.env.E2E_FIXTURE_URL}`,
    );
    console.log(
      `Serving public/ at ${site.origin} (enquiries in ${enquiryDir}); refusing receiver at ${refusing.origin}`,
    );
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
