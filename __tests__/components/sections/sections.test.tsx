import { render, screen, within } from "@testing-library/react";
import { Sections } from "../../../src/components/sections/sections";
import type { PageSection } from "../../../src/components/sections/types";
import { carouselLabels, markdown, picture, siteContact } from "../../support/sections";

// One section of every type, in an order unlike the type list's.
const sections: PageSection[] = [
  { type: "slideshow", label: "Gallery", slides: [picture("Slide one"), picture("Slide two")] },
  { type: "text", body: markdown("Plain text section.") },
  { type: "contact-strip" },
  {
    type: "cards",
    heading: "Cards",
    cards: [
      { title: "A", text: "a" },
      { title: "B", text: "b" },
    ],
  },
  { type: "picture-with-text", ...picture("Side picture"), heading: "Picture", body: markdown("Beside.") },
  { type: "questions", heading: "Questions", items: [{ question: "Why?", answer: markdown("Because.") }] },
  { type: "call-to-action", heading: "Act", text: "Now.", buttonLabel: "Go" },
];

/** What identifies each top-level band: its name, or its text when it has none. */
const bands = (container: HTMLElement) =>
  [...container.querySelectorAll(":scope > section")].map((band) => {
    const carousel = band.querySelector("[aria-roledescription=carousel]");
    const labelledBy = band.getAttribute("aria-labelledby");
    if (carousel) return carousel.getAttribute("aria-label");
    return labelledBy ? document.getElementById(labelledBy)?.textContent : band.textContent;
  });

test("each section by its type's component, in the page's order", () => {
  const { container } = render(<Sections sections={sections} contact={siteContact} carouselLabels={carouselLabels} />);
  expect(bands(container)).toEqual([
    "Gallery",
    "Plain text section.",
    "Contact us",
    "Cards",
    "Picture",
    "Questions",
    "Act",
  ]);
  expect(screen.getByRole("region", { name: "Contact us" })).toHaveTextContent(siteContact.email);
  expect(within(screen.getByRole("region", { name: "Cards" })).getAllByRole("listitem")).toHaveLength(2);
  expect(screen.getByRole("img", { name: "Side picture" })).toBeInTheDocument();
  expect(screen.getByText("Why?").tagName).toBe("SUMMARY");
  expect(screen.getByRole("link", { name: "Go" })).toHaveAttribute("href", "/contact");
  expect(screen.getByRole("button", { name: carouselLabels.pause })).toBeInTheDocument();
});

test.each([
  ["a slideshow's first slide", 0, "[aria-roledescription=carousel] img"],
  ["a picture with text's picture", 4, "figure img"],
])("%s loads eagerly, first, only in the first section of a page without a banner", (_, index, selector) => {
  const loading = (props: { hasBanner?: boolean; after?: number }) => {
    const list = [...sections.filter((_s, i) => i !== index).slice(0, props.after ?? 0), sections[index]!];
    const { container, unmount } = render(
      <Sections sections={list} contact={siteContact} carouselLabels={carouselLabels} hasBanner={props.hasBanner} />,
    );
    const img = container.querySelector(selector);
    const result = [img?.getAttribute("loading"), img?.getAttribute("fetchpriority") ?? null];
    unmount();
    return result;
  };
  expect(loading({})).toEqual(["eager", "high"]);
  expect(loading({ hasBanner: true })).toEqual(["lazy", null]);
  expect(loading({ after: 1 })).toEqual(["lazy", null]);
});
