/**
 * Browser tests of the built site in real Chromium (Debian's, never a downloaded one): every route
 * and interaction, axe-core, a keyboard walk and full-page screenshots. Run with `npm run test:e2e`,
 * which builds the site first when public/ is out of date.
 *
 * The global setup serves public/ with its Gatsby Functions on free loopback ports (see
 * global-setup.ts). Each project is one viewport; a test runs in the projects whose width it is
 * tagged with (`@375`, `@768`, `@1024`, `@1280`). The projects `nojs-375` and `nojs-1280` browse
 * with JavaScript disabled and run the tests tagged `@nojs-375` and `@nojs-1280`.
 */
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromePath, chromiumArgs } from "../../tools/chromium";

const projectRoot = path.resolve(__dirname, "../..");

export const viewports = {
  "mobile-375": { width: 375, height: 812 },
  "tablet-768": { width: 768, height: 1024 },
  "laptop-1024": { width: 1024, height: 768 },
  "desktop-1280": { width: 1280, height: 800 },
} as const;

/** Viewports browsed with JavaScript disabled (the site must work without it). */
export const noJsViewports = {
  "nojs-375": viewports["mobile-375"],
  "nojs-1280": viewports["desktop-1280"],
} as const;

/** Selects the tests tagged exactly `@<tag>`: `@375` neither matches `@nojs-375` nor the reverse. */
const taggedWith = (tag: string) => new RegExp(`(?:^|\\s)@${tag}(?=\\s|$)`);

export default defineConfig({
  testDir: __dirname,
  testMatch: "*.spec.ts",
  outputDir: path.join(projectRoot, "test-results/e2e"),
  globalSetup: "./global-setup.ts",
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["./axe-summary-reporter.ts"]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: chromePath, args: [...chromiumArgs] },
    // The site's own origin only; nothing is fetched from the internet (the map frame is blocked).
    serviceWorkers: "block",
    locale: "en-GB",
    timezoneId: "Asia/Kolkata",
    actionTimeout: 10_000,
    navigationTimeout: 30_000,
    screenshot: "only-on-failure",
    // Recording costs about 15 % of the run; ask for it with `-- --trace retain-on-failure`.
    trace: "off",
  },
  projects: [
    ...Object.entries(viewports).map(([name, viewport]) => ({
      name,
      use: { viewport },
      grep: taggedWith(String(viewport.width)),
    })),
    ...Object.entries(noJsViewports).map(([name, viewport]) => ({
      name,
      use: { viewport, javaScriptEnabled: false },
      grep: taggedWith(`nojs-${viewport.width}`),
    })),
  ],
});
