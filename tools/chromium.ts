/**
 * Debian's Chromium and the flags every headless run of it here starts with: the browser tests
 * (__tests__/e2e, __tests__/deploy/browser) and the benchmark (tools/bench) alike, so that the
 * benchmark measures the browser the tests check. CI installs it with apt; Playwright's own browser
 * downloads are never used.
 */
export const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";

export const chromiumArgs: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
