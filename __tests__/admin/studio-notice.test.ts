/**
 * The studio's notice at the top (admin/src/studio-notice.ts), in jsdom: "Checking …" is said in one
 * live region kept on the page (screen readers announce changes to a region they already know), an
 * answer is a new alert in its place, OK closes it, and leaving the screen takes both away.
 */
import { clearNotice, installNotices, NOTICE_CLASS, showAnswer, showStatus } from "../../admin/src/studio-notice";

const status = () => document.querySelectorAll(`.${NOTICE_CLASS}[role=status]`);
const alerts = () => document.querySelectorAll(`.${NOTICE_CLASS}[role=alert]`);

beforeAll(() => installNotices());
afterEach(() => clearNotice());

test("the status region is on the page from the start, empty, and says what the studio is doing", () => {
  expect(status()).toHaveLength(1);
  expect(status()[0]!.textContent).toBe("");
  const region = status()[0];
  showStatus("Checking what names this page before deleting it…");
  expect(status()).toHaveLength(1);
  expect(status()[0]).toBe(region);
  expect(region!.textContent).toBe("Checking what names this page before deleting it…");
});

test("an answer takes the status's place, one paragraph a line, and a new answer replaces it", () => {
  showStatus("Checking …");
  showAnswer(["Not saved: Slug: The slug is taken.", "Title: too long."]);
  expect(status()[0]!.textContent).toBe("");
  expect(alerts()).toHaveLength(1);
  expect([...alerts()[0]!.querySelectorAll("p")].map((p) => p.textContent)).toEqual([
    "Not saved: Slug: The slug is taken.",
    "Title: too long.",
  ]);
  const first = alerts()[0];
  showAnswer(["Not saved: Title: too long."]);
  expect(alerts()).toHaveLength(1);
  expect(alerts()[0]).not.toBe(first);
});

test("OK closes the answer; leaving the screen takes everything away", () => {
  showAnswer(["Not saved: Slug: The slug is taken."]);
  alerts()[0]!.querySelector("button")!.click();
  expect(alerts()).toHaveLength(0);

  showAnswer(["Not saved: Slug: The slug is taken."]);
  showStatus("Checking …");
  expect(alerts()).toHaveLength(0);
  showAnswer(["… remove it there first, then delete it."]);
  window.dispatchEvent(new HashChangeEvent("hashchange"));
  expect(alerts()).toHaveLength(0);
  expect(status()[0]!.textContent).toBe("");
});
