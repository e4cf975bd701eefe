import { render, screen, within } from "@testing-library/react";
import { PictureWithTextSection } from "../../../src/components/sections/picture-with-text-section";
import { markdown, picture } from "../../support/sections";

const fields = { ...picture("A monitor at a trial site"), heading: "Site monitoring", body: markdown("We visit.") };

/** Whether `a` comes before `b` in the document, which is the order read and, here, seen. */
const before = (a: Element, b: Element) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);

test("a region named by its h2, with the picture (its alt text) and the text", () => {
  render(<PictureWithTextSection {...fields} />);
  const region = screen.getByRole("region", { name: "Site monitoring" });
  expect(within(region).getByRole("heading", { level: 2, name: "Site monitoring" })).toBeInTheDocument();
  expect(within(region).getByRole("img", { name: fields.alt })).toBeInTheDocument();
  expect(within(region).getByText("We visit.")).toBeInTheDocument();
});

test("the picture comes first on the left (the default) and last on the right", () => {
  const { rerender } = render(<PictureWithTextSection {...fields} />);
  const order = () => before(screen.getByRole("img"), screen.getByRole("heading"));
  expect(order()).toBe(true);
  rerender(<PictureWithTextSection {...fields} side="left" />);
  expect(order()).toBe(true);
  rerender(<PictureWithTextSection {...fields} side="right" />);
  expect(order()).toBe(false);
  expect(before(screen.getByText("We visit."), screen.getByRole("img"))).toBe(true);
});

test("a caption is the figure's figcaption; without one there is none", () => {
  const { container, rerender } = render(<PictureWithTextSection {...fields} caption="Our team in Chennai" />);
  const figure = screen.getByRole("figure");
  expect(within(figure).getByRole("img", { name: fields.alt })).toBeInTheDocument();
  expect(figure.querySelector("figcaption")).toHaveTextContent("Our team in Chennai");
  rerender(<PictureWithTextSection {...fields} caption={null} heading={null} />);
  expect(container.querySelector("figcaption")).toBeNull();
  expect(screen.queryByRole("heading")).toBeNull();
  expect(screen.queryByRole("region")).toBeNull();
});
