/**
 * The Why Cyrus cards tell a screen reader what they show: before and without JavaScript the
 * buttons claim no state (CSS shows a description while focus is in its card, and it is the
 * button's accessible description); with scripts, aria-expanded is what is shown: keyboard focus
 * expands a card and leaving collapses it, a tap, click, Enter or Space toggles it. (Which CSS rule
 * shows what is checked in a browser: __tests__/e2e/support/why-cyrus.ts.)
 */
import { act, render as renderComponent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { WhyCyrusView } from "../../src/components/views/why-cyrus-view";
import { content } from "../support/content";
import { islandOn } from "../support/island";
import { serverHtmlHarness } from "../support/server-html";

/** Runs the reveal cards' island on what the document holds now. */
const islandOnDocument = () =>
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an island runs when its module is loaded
    require("../../src/islands/reveal-cards");
  });

const page = content.whyCyrus;
const view = <WhyCyrusView {...page} />;
const buttons = () => screen.getAllByRole("button");
const card = (i: number) => buttons()[i]!.closest("li")!;
/** Each card's announced state, as aria-expanded says it ("true", "false", or null: none claimed). */
const expanded = () => buttons().map((b) => b.getAttribute("aria-expanded"));
/** What each card shows with scripts: its data-open, which the CSS follows. */
const shown = () => buttons().map((b) => b.closest("li")!.getAttribute("data-open"));
const only = (i: number | null, value = "true") => page.cards.map((_, j) => (j === i ? value : "false"));

const { serverHtml, hydrate } = serverHtmlHarness();

describe("before and without JavaScript", () => {
  it("claims no state, and each description is its button's accessible description, in the HTML", () => {
    serverHtml(view);
    expect(buttons().map((b) => b.textContent)).toEqual(page.cards.map((c) => c.title));
    page.cards.forEach((c, i) => {
      const button = buttons()[i]!;
      expect(button).not.toHaveAttribute("aria-expanded");
      expect(button).not.toHaveAttribute("aria-controls");
      expect(button).toHaveAccessibleDescription(c.description);
      expect(card(i)).toHaveAttribute("data-scripted", "false");
      expect(card(i)).not.toHaveAttribute("data-open");
    });
  });

  it("hands over to the scripts where the visitor is: the card with focus stays shown, now announced expanded", () => {
    const container = serverHtml(view);
    act(() => buttons()[2]!.focus());
    hydrate(container, view);
    expect(buttons()[2]).toHaveFocus();
    expect(expanded()).toEqual(only(2));
    expect(shown()).toEqual(only(2));
    expect(card(2)).toHaveAttribute("data-scripted", "true");
    expect(buttons()[2]).toHaveAttribute("aria-controls", card(2).querySelector("p")!.id);
    expect(buttons()[2]).not.toHaveAttribute("aria-describedby");
  });
});

/**
 * The cards as the browser gets them with scripts: rendered by React (`npm run develop`, the studio's
 * previews), or their server HTML taken over by their island (src/islands/reveal-cards.ts, the built site).
 */
const scripted: Record<string, () => void> = {
  component: () => void renderComponent(view),
  island: () => void islandOn(view, "reveal-cards"),
};

describe("the island takes over where the visitor is", () => {
  it("the card with focus stays shown, now announced expanded; the others claim collapsed", () => {
    serverHtml(view);
    act(() => buttons()[2]!.focus());
    islandOnDocument();
    expect(buttons()[2]).toHaveFocus();
    expect(expanded()).toEqual(only(2));
    expect(shown()).toEqual(only(2));
    expect(card(2)).toHaveAttribute("data-scripted", "true");
    expect(buttons()[2]).toHaveAttribute("aria-controls", card(2).querySelector("p")!.id);
    expect(buttons()[2]).not.toHaveAttribute("aria-describedby");
  });
});

describe.each(Object.keys(scripted))("with scripts (%s)", (variant) => {
  const render = scripted[variant]!;
  it("keyboard focus expands a card and leaving it collapses it; shown and announced agree", async () => {
    const user = userEvent.setup();
    render();
    expect(expanded()).toEqual(only(null));
    for (let i = 0; i < page.cards.length; i += 1) {
      await user.tab();
      expect(buttons()[i]).toHaveFocus();
      expect(expanded()).toEqual(only(i));
      expect(shown()).toEqual(expanded());
    }
    await user.tab();
    expect(expanded()).toEqual(only(null));
  });

  it("Enter and Space toggle the focused card, and a card opened so stays open when focus leaves", async () => {
    const user = userEvent.setup();
    render();
    await user.tab();
    await user.keyboard("{Enter}");
    expect(expanded()).toEqual(only(null));
    expect(shown()).toEqual(only(null));
    await user.keyboard(" ");
    expect(expanded()).toEqual(only(0));
    await user.tab();
    expect(expanded()).toEqual(["true", "true", ...only(null).slice(2)]);
    expect(shown()).toEqual(expanded());
  });

  it("a tap or click opens a card and keeps it open; a second one closes it", async () => {
    const user = userEvent.setup();
    render();
    await user.click(buttons()[0]!);
    expect(expanded()).toEqual(only(0));
    await user.click(buttons()[1]!);
    expect(expanded()).toEqual(["true", "true", ...only(null).slice(2)]);
    await user.click(buttons()[1]!);
    expect(expanded()).toEqual(only(0));
    expect(shown()).toEqual(expanded());
  });
});
