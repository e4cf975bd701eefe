import { render, screen } from "@testing-library/react";
import { TextSection } from "../../../src/components/sections/text-section";
import { markdown } from "../../support/sections";

test("a text section shows its body's paragraphs in order, with no heading of its own", () => {
  const { container } = render(<TextSection body={markdown("First paragraph.", "Second paragraph.")} />);
  const section = container.querySelector("section");
  expect(section).not.toBeNull();
  expect([...section!.querySelectorAll("p")].map((p) => p.textContent)).toEqual([
    "First paragraph.",
    "Second paragraph.",
  ]);
  expect(screen.queryByRole("heading")).toBeNull();
});
