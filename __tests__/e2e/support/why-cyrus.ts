/**
 * The Why Cyrus cards as a visitor uses them: with scripts or without, the same behaviour, and what
 * keyboard focus shows is what the accessibility tree says.
 */
import type { Page } from "@playwright/test";
import { whyCyrus } from "./content";
import { expect } from "./fixtures";

const cardsOf = (page: Page) => page.getByRole("main").getByRole("listitem");

/**
 * On an open /whycyrus: each card's description is hidden (yet in the HTML) until the card is
 * hovered or its button has keyboard focus, and only one shows at a time. While focus shows it, the
 * focused button says so: aria-expanded="true" with scripts; without them (no state can change) it
 * claims no state at all and has the description as its accessible description.
 */
export async function expectDescriptionsRevealOnHoverAndFocus(page: Page, { scripted }: { scripted: boolean }) {
  const cards = cardsOf(page);
  await expect(cards).toHaveCount(7);
  const button = (i: number) => cards.nth(i).getByRole("button");
  const description = (i: number) => cards.nth(i).getByText(whyCyrus.cards[i]!.description);
  const expectCollapsed = async (i: number) => {
    await expect(description(i)).toBeHidden();
    if (scripted) await expect(button(i)).toHaveAttribute("aria-expanded", "false");
    else await expect(button(i)).not.toHaveAttribute("aria-expanded");
  };

  for (let i = 0; i < 7; i += 1) {
    await expect(cards.nth(i).getByRole("heading", { level: 2 })).toHaveText(whyCyrus.cards[i]!.title);
    await expectCollapsed(i);
    await expect(description(i)).toBeAttached(); // in the HTML for crawlers
  }

  // Hover: only the hovered card's description shows (to pointers: nothing is announced).
  for (let i = 0; i < 7; i += 1) {
    await cards.nth(i).hover();
    await expect(description(i)).toBeVisible();
    for (let j = 0; j < 7; j += 1) if (j !== i) await expect(description(j)).toBeHidden();
  }
  await page.mouse.move(1, 1);
  await expect(description(6)).toBeHidden();

  // Keyboard: Tab from the intro through the cards' buttons.
  await page.getByRole("main").getByRole("heading", { level: 1 }).click();
  await page.mouse.move(1, 1);
  for (let i = 0; i < 7; i += 1) {
    await page.keyboard.press("Tab");
    await expect(button(i)).toBeFocused();
    await expect(description(i)).toBeVisible();
    const { title, description: text } = whyCyrus.cards[i]!;
    if (scripted) {
      await expect(cards.nth(i).getByRole("button", { name: title, expanded: true })).toBeFocused();
    } else {
      await expect(button(i)).not.toHaveAttribute("aria-expanded");
      await expect(button(i)).toHaveAccessibleDescription(text);
    }
    // Shown, so in the accessibility tree (role queries leave out what is hidden from it).
    await expect(cards.nth(i).getByRole("paragraph")).toHaveText(text);
    if (i > 0) await expectCollapsed(i - 1);
  }
  await page.keyboard.press("Tab");
  await expectCollapsed(6);
}

/**
 * With scripts, on an open /whycyrus with the pointer away from the cards: each card shows its
 * description exactly while its button says aria-expanded="true", whatever opened or closed it
 * (keyboard focus, Enter, Space, a click); a card opened by a choice stays open when focus leaves.
 */
export async function expectShownAsAnnounced(page: Page) {
  const cards = cardsOf(page);
  const button = (i: number) => cards.nth(i).getByRole("button");
  const expectStates = async (states: boolean[]) => {
    for (const [i, open] of states.entries()) {
      await expect(button(i)).toHaveAttribute("aria-expanded", String(open));
      const description = cards.nth(i).getByText(whyCyrus.cards[i]!.description);
      if (open) await expect(description).toBeVisible();
      else await expect(description).toBeHidden();
    }
  };
  const closed = [false, false, false];

  await page.getByRole("main").getByRole("heading", { level: 1 }).click();
  await page.mouse.move(1, 1);
  await page.keyboard.press("Tab");
  await expectStates([true, false, false]);
  await page.keyboard.press("Enter");
  await expectStates(closed);
  await page.keyboard.press("Space");
  await expectStates([true, false, false]);
  await page.keyboard.press("Tab");
  await expectStates([true, true, false]);
  await page.keyboard.press("Tab");
  await expectStates([true, false, true]);

  // A click (a tap) toggles, and the pointer leaving does not change what it chose.
  await button(1).click();
  await page.mouse.move(1, 1);
  await expectStates([true, true, false]);
  await button(1).click();
  await page.mouse.move(1, 1);
  await expectStates([true, false, false]);
  await button(0).click();
  await page.mouse.move(1, 1);
  await expectStates(closed);
}
