/**
 * The built site behind nginx (the project's configuration and security headers) and the standalone
 * enquiry service, in Debian's Chromium: no Content-Security-Policy violation and no console error on
 * any page, the islands working where a page has behaviour (the carousel, the form; plain links),
 * pages without behaviour running no script (plain links, the script-free menu), the contact form sending
 * through nginx, and showing its error while the service is down. Run by `npm run test:deploy`.
 * The spec starts its own stack (../support/stack.ts).
 */
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromePath, chromiumArgs } from "../../../tools/chromium";

const projectRoot = path.resolve(__dirname, "../../..");

export default defineConfig({
  testDir: __dirname,
  testMatch: "*.spec.ts",
  outputDir: path.join(projectRoot, "test-results/deploy-browser"),
  // One stack, one browser: the tests stop and restart the enquiry service.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  globalTimeout: 15 * 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: chromePath, args: [...chromiumArgs] },
    serviceWorkers: "block",
    actionTimeout: 10_000,
    navigationTimeout: 30_000,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
});
