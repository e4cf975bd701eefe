/**
 * Runs a command against the production stack (nginx with the project's configuration + the
 * standalone enquiry service, see stack.ts), e.g. the browser suite:
 *
 *   npx tsx __tests__/deploy/support/with-stack.ts -- playwright test -c __tests__/e2e/playwright.config.ts
 *
 * Stacks are started on free loopback ports, and the command gets their addresses:
 *   E2E_BASE_URL, DEPLOY_BASE_URL   nginx of the site (enquiry folder: E2E_ENQUIRY_DIR)
 *   E2E_REFUSING_URL                a second nginx + service that takes one enquiry per client an
 *                                   hour (ENQUIRY_RATE_LIMIT=1), for the form's error path
 *                                   (enquiry folder: E2E_REFUSING_ENQUIRY_DIR)
 *   E2E_FIXTURE_URL                 a third, serving the fixture site's build (a page of every section
 *                                   type, __tests__/support/fixture-site.ts), when it is up to date
 * All are stopped when the command ends (or this process is interrupted); its exit code is kept.
 */
import { spawn } from "node:child_process";
import { fixturePublic, fixtureSiteProblem } from "../../support/fixture-site";
import { startStack, type Stack } from "./stack";

async function main(): Promise<number> {
  const separator = process.argv.indexOf("--");
  const command = separator >= 0 ? process.argv.slice(separator + 1) : [];
  if (command.length === 0) {
    console.error("usage: tsx __tests__/deploy/support/with-stack.ts -- <command> [args…]");
    return 2;
  }
  const stacks: Stack[] = [];
  const stopAll = () => Promise.all(stacks.map((s) => s.stop()));
  try {
    const site = await startStack();
    stacks.push(site);
    const refusing = await startStack({ serviceEnv: { ENQUIRY_RATE_LIMIT: "1", ENQUIRY_RATE_WINDOW_SECONDS: "3600" } });
    stacks.push(refusing);
    console.log(`nginx at ${site.origin} (enquiries in ${site.dataDir}); refusing stack at ${refusing.origin}`);
    // The browser tests of the fixture page skip, saying why, without it.
    const fixtureProblem = fixtureSiteProblem();
    const fixture = fixtureProblem ? undefined : await startStack({ publicDir: fixturePublic });
    if (fixture) stacks.push(fixture);
    console.log(fixture ? `the fixture site at ${fixture.origin}` : `no fixture site stack: ${fixtureProblem}`);
    const env = {
      ...process.env,
      DEPLOY_BASE_URL: site.origin,
      E2E_BASE_URL: site.origin,
      E2E_ENQUIRY_DIR: site.dataDir,
      E2E_REFUSING_URL: refusing.origin,
      E2E_REFUSING_ENQUIRY_DIR: refusing.dataDir,
      ...(fixture && { E2E_FIXTURE_URL: fixture.origin }),
    };
    const child = spawn(command[0]!, command.slice(1), { stdio: "inherit", env, shell: false });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", forward).on("SIGTERM", forward);
    const code = await new Promise<number>((resolve) => {
      child.on("error", (error) => {
        console.error(`cannot run ${command[0]}: ${error.message}`);
        resolve(127);
      });
      child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    process.off("SIGINT", forward).off("SIGTERM", forward);
    return code;
  } finally {
    await stopAll();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
