/**
 * One browser tab shared by the tests of a Playwright worker (the site's browser tests and the
 * studio's): a new context and tab per test cost a renderer process and its start each time, about as
 * much CPU as a page of the site. Each test starts on about:blank; what it set on the tab goes with it.
 */
import type { Dialog, Page, ViewportSize } from "@playwright/test";

/** The page events a test may listen to (`page.on`): none may outlive its test on a shared tab. */
const TEST_EVENTS = [
  "console",
  "dialog",
  "download",
  "filechooser",
  "pageerror",
  "popup",
  "request",
  "requestfailed",
  "requestfinished",
  "response",
] as const;

/**
 * A `page` fixture's body for a shared tab. Before the test: about:blank, leaving the last page even
 * if it asks first (an entry with unsaved changes: beforeunload), which also cancels what it still
 * loaded. After it: the listeners, routes and window size the test set are undone.
 */
export async function withSharedTab(
  tab: Page,
  viewport: ViewportSize | null | undefined,
  runTest: (page: Page) => Promise<void>,
) {
  const leave = (dialog: Dialog) => void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss());
  tab.on("dialog", leave);
  await tab.goto("about:blank");
  tab.off("dialog", leave);
  await runTest(tab);
  for (const event of TEST_EVENTS) tab.removeAllListeners(event);
  await tab.unrouteAll({ behavior: "ignoreErrors" });
  if (viewport) await tab.setViewportSize(viewport);
}
