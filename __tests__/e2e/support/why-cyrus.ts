/** The Why Cyrus cards as a visitor uses them: with scripts or without, the same behaviour. */
import type { Page } from "@playwright/test";
import { whyCyrus } from "./content";
import { expect } from "./fixtures";

/**
 * On an open /whycyrus: each card's description is hidden (yet in the HTML) until the card is
 * hovered or its button has keyboard focus, and only one shows at a time.
 */
export async function expectDescriptionsRevealOnHoverAndFocus(page: Page) {
  const cards = page.getByRole("main").getByRole("listitem");
  await expect(cards).toHaveCount(7);
  const description = (i: number) => cards.nth(i).getByText(whyCyrus.cards[i]!.description);

  for (let i = 0; i < 7; i += 1) {
    await expect(cards.nth(i).getByRole("heading", { level: 2 })).toHaveText(whyCyrus.cards[i]!.title);
    await expect(description(i), "hidden at first").toBeHidden();
    await expect(description(i)).toBeAttached(); // in the HTML for crawlers and screen readers
  }

  // Hover: only the hovered card's description shows.
  for (let i = 0; i < 7; i += 1) {
    await cards.nth(i).hover();
    await expect(description(i)).toBeVisible();
    for (let j = 0; j < 7; j += 1) if (j !== i) await expect(description(j)).toBeHidden();
  }
  await page.mouse.move(1, 1);
  await expect(description(6)).toBeHidden();

  // Keyboard: Tab from the intro through the cards' buttons.
  await page.getByRole("main").getByRole("heading", { level: 1 }).click();
  for (let i = 0; i < 7; i += 1) {
    await page.keyboard.press("Tab");
    await expect(cards.nth(i).getByRole("button")).toBeFocused();
    await expect(description(i)).toBeVisible();
    if (i > 0) await expect(description(i - 1), "the previous card hides again").toBeHidden();
  }
  await page.keyboard.press("Tab");
  await expect(description(6)).toBeHidden();
}
