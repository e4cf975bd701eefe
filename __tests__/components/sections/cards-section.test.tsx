import { render, screen, within } from "@testing-library/react";
import { CardsSection } from "../../../src/components/sections/cards-section";
import type { CardFields } from "../../../src/components/sections/types";
import { picture } from "../../support/sections";

const card = (n: number, extra: Partial<CardFields> = {}): CardFields => ({
  title: `Card ${n}`,
  text: `Text of card ${n}.`,
  ...extra,
});

test.each([2, 6])("%i cards are a list of %i items, each its title (h3 under the h2) and text", (count) => {
  const cards = Array.from({ length: count }, (_, i) => card(i + 1));
  render(<CardsSection heading="What we offer" cards={cards} />);
  const region = screen.getByRole("region", { name: "What we offer" });
  const items = within(within(region).getByRole("list")).getAllByRole("listitem");
  expect(items).toHaveLength(count);
  items.forEach((item, i) => {
    expect(within(item).getByRole("heading", { level: 3 })).toHaveTextContent(`Card ${i + 1}`);
    expect(item).toHaveTextContent(`Text of card ${i + 1}.`);
  });
});

test("without the section's heading, the cards' titles are h2", () => {
  render(<CardsSection cards={[card(1), card(2)]} />);
  expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual(["Card 1", "Card 2"]);
});

test("a link goes to its path and its name says where: the label, then the card's title", () => {
  render(
    <CardsSection
      cards={[card(1, { link: "/careers" }), card(2, { link: "/contact", linkLabel: "Write to us" }), card(3)]}
    />,
  );
  const links = screen.getAllByRole("link");
  expect(links.map((a) => [a.getAttribute("href"), a.textContent])).toEqual([
    ["/careers", "Read more – Card 1"],
    ["/contact", "Write to us – Card 2"],
  ]);
  expect(screen.getByRole("link", { name: "Read more – Card 1" })).toBeInTheDocument();
  expect(within(screen.getAllByRole("listitem")[2]!).queryByRole("link")).toBeNull();
});

test("a card's picture shows with its alt text; a card without one has no image", () => {
  render(<CardsSection cards={[card(1, { image: picture("Volunteers at a briefing") }), card(2)]} />);
  const [first, second] = screen.getAllByRole("listitem");
  expect(within(first!).getByRole("img", { name: "Volunteers at a briefing" })).toBeInTheDocument();
  expect(within(second!).queryByRole("img")).toBeNull();
});
