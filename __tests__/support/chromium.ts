/**
 * Debian's Chromium and the flags every headless run here starts it with (browser tests and the
 * benchmark alike). CI installs it with apt; Playwright's own browser downloads are never used.
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
