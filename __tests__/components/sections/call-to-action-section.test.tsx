import { render, screen, within } from "@testing-library/react";
import { CallToActionSection } from "../../../src/components/sections/call-to-action-section";

const fields = { heading: "Planning a trial?", text: "Tell us about it.", buttonLabel: "Talk to us" };

test("a region named by its h2, its line of text and a link to the contact page by default", () => {
  render(<CallToActionSection {...fields} />);
  const region = screen.getByRole("region", { name: fields.heading });
  expect(within(region).getByRole("heading", { level: 2 })).toHaveTextContent(fields.heading);
  expect(within(region).getByText(fields.text)).toBeInTheDocument();
  expect(within(region).getByRole("link", { name: fields.buttonLabel })).toHaveAttribute("href", "/contact");
});

test("the button goes to the page the editor named", () => {
  const { rerender } = render(<CallToActionSection {...fields} buttonTo="/services" />);
  expect(screen.getByRole("link", { name: fields.buttonLabel })).toHaveAttribute("href", "/services");
  rerender(<CallToActionSection {...fields} buttonTo={null} />);
  expect(screen.getByRole("link", { name: fields.buttonLabel })).toHaveAttribute("href", "/contact");
});
