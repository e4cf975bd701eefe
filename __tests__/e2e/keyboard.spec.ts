/**
 * The keyboard walk (support/keyboard-walk.ts) of the 404 page at 375 and 1280 px. Every route of the
 * site is walked in its own test in routes.spec.ts, where the page is loaded once for all its checks.
 */
import { expectKeyboardWalk, prepareKeyboardWalk } from "./support/keyboard-walk";
import { at, open, sharedTabTest as test } from "./support/fixtures";

test("keyboard walk of the 404 page", at(375, 1280), async ({ page }) => {
  await prepareKeyboardWalk(page);
  await open(page, "/no-such-page");
  await expectKeyboardWalk(page, "the 404 page");
});
