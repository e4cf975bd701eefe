/**
 * The editing studio in Debian's Chromium, driven as an editor would: `npm run test:admin`. Each
 * test starts the real studio (npm run cms's decap-server on loopback and the studio built for it)
 * on a COPY of data/ in a temporary folder: the project's data/ is never written.
 */
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromePath, chromiumArgs } from "../../../tools/chromium";

export default defineConfig({
  testDir: __dirname,
  testMatch: "*.spec.ts",
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // Generous: in CI this suite runs beside the release runner's builds (.ci/run); a bound, not a measure.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: chromePath, args: [...chromiumArgs] },
    viewport: { width: 1400, height: 900 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    screenshot: "only-on-failure",
    trace: "off",
  },
  // studio-pages.spec.ts ends with a build of the site (2 of its 3 minutes): CI runs it on the other
  // side of its side-by-side step, after the release runner (.ci/run), with a folder of its own.
  projects: [
    {
      name: "studio",
      testIgnore: "studio-pages.spec.ts",
      outputDir: path.resolve(__dirname, "../../../test-results/admin/studio"),
    },
    {
      name: "studio-pages",
      testMatch: "studio-pages.spec.ts",
      outputDir: path.resolve(__dirname, "../../../test-results/admin/studio-pages"),
    },
  ],
});
