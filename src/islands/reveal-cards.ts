/**
 * Why Cyrus's cards (src/components/views/why-cyrus-view.tsx renders them and explains the states).
 * Without scripts CSS shows a card's description while focus is in it, described by it; once
 * scripted the description shows exactly while the button says aria-expanded="true" (hover aside):
 * keyboard focus expands it and leaving collapses it again; a tap, a click or Enter/Space toggles
 * it, and what they open stays open.
 */
import { islandReady } from "./island-data";

type OpenedBy = "focus" | "choice" | null;

function revealCard(card: HTMLElement) {
  const button = card.querySelector<HTMLButtonElement>("h2 > button");
  const text = card.querySelector<HTMLElement>(":scope > p[id]");
  if (!button || !text) return;
  // Focus in the card when the script arrives: CSS was showing the description, so it stays shown.
  let openedBy: OpenedBy = card.matches(":focus-within") ? "focus" : null;
  const set = (next: OpenedBy) => {
    openedBy = next;
    card.dataset.open = String(openedBy !== null);
    button.setAttribute("aria-expanded", String(openedBy !== null));
  };
  card.dataset.scripted = "true";
  button.removeAttribute("aria-describedby");
  button.setAttribute("aria-controls", text.id);
  set(openedBy);
  button.addEventListener("focus", () => set(openedBy ?? "focus"));
  button.addEventListener("blur", () => set(openedBy === "focus" ? null : openedBy));
  button.addEventListener("click", (event) => {
    // A pointer's press focuses the button first (except in Safari), which has just expanded it:
    // the click keeps it open instead of closing it again. Enter and Space click with detail 0.
    const pointer = event.detail > 0;
    set(openedBy === "focus" && pointer ? "choice" : openedBy ? null : "choice");
  });
}

document.querySelectorAll<HTMLElement>('li[data-scripted="false"]').forEach(revealCard);
islandReady("reveal-cards");
