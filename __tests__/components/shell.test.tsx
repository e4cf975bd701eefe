import { render, screen, within } from "@testing-library/react";
import { Shell } from "../../src/components/shell/shell";
import { loadShellData } from "../support/content";

const data = loadShellData();
const { site } = data;

function renderShell() {
  return render(
    <Shell data={data}>
      <h1>Page heading</h1>
    </Shell>,
  );
}

describe("Shell", () => {
  it("offers a skip link to the main content, which can take focus", () => {
    renderShell();
    const skip = screen.getByRole("link", { name: "Skip to main content" });
    expect(skip).toHaveAttribute("href", "#main");
    const main = screen.getByRole("main");
    expect(main).toHaveAttribute("id", "main");
    expect(main).toHaveAttribute("tabindex", "-1");
    expect(within(main).getByRole("heading", { name: "Page heading" })).toBeInTheDocument();
  });

  it("shows the logo link to /home, the provider name and the tagline in the header", () => {
    renderShell();
    const header = screen.getByRole("banner");
    const home = within(header).getByRole("link", { name: "Cyrus home" });
    expect(home).toHaveAttribute("href", "/home");
    expect(within(home).getByText("Cyrus")).toBeVisible();
    expect(within(header).getByText("A support of innovation in fostering research")).toBeVisible();
    expect(within(header).getByRole("navigation", { name: "Main" })).toBeInTheDocument();
  });

  it("shows the Chennai postal address in the footer", () => {
    renderShell();
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByRole("heading", { name: site.labels.addressHeading })).toBeVisible();
    const address = footer.querySelector("address");
    expect(address).not.toBeNull();
    expect(address).toHaveTextContent("Guindy");
    expect(address).toHaveTextContent("Chennai");
    expect(address).toHaveTextContent("600032");
    expect(address).toHaveTextContent("Tamil Nadu");
    expect(address).toHaveTextContent("India");
    // The editor's street field repeats the locality; it must not show twice.
    expect(address?.textContent?.match(/Guindy/g)).toHaveLength(1);
  });

  it("links the mobile and telephone numbers with tel: and the e-mail with mailto:", () => {
    renderShell();
    const footer = screen.getByRole("contentinfo");
    const mobile = within(footer).getByRole("link", { name: site.mobile });
    const telephone = within(footer).getByRole("link", { name: site.telephone });
    expect(mobile.getAttribute("href")).toBe(`tel:${site.mobile.replace(/[^\d+]/g, "")}`);
    expect(mobile.getAttribute("href")).toMatch(/^tel:\+\d{8,15}$/);
    expect(telephone.getAttribute("href")).toMatch(/^tel:\+\d{8,15}$/);
    expect(within(footer).getByText(site.labels.mobile)).toBeVisible();
    expect(within(footer).getByText(site.labels.telephone)).toBeVisible();
    expect(within(footer).getByRole("link", { name: site.email })).toHaveAttribute("href", `mailto:${site.email}`);
  });

  it("links Facebook, Instagram and LinkedIn under Follow Us, in a new tab", () => {
    renderShell();
    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByRole("heading", { name: "Follow Us" })).toBeVisible();
    for (const name of ["Facebook", "Instagram", "LinkedIn"]) {
      const link = within(footer).getByRole("link", { name });
      const profile = site.social.find((s) => s.name === name);
      expect(link).toHaveAttribute("href", profile?.url);
      expect(link).toHaveAttribute("target", "_blank");
      expect(link).toHaveAttribute("rel", "noopener noreferrer");
    }
  });

  it("shows the copyright with the current year", () => {
    renderShell();
    const footer = screen.getByRole("contentinfo");
    const year = String(new Date().getFullYear());
    const line = within(footer).getByText((text) => text.includes(year));
    expect(line.textContent).not.toContain("{year}");
    expect(line.textContent).toBe(site.labels.copyright.replace("{year}", year));
  });

  it("renders the floating messaging button", () => {
    renderShell();
    expect(screen.getByRole("link", { name: site.messaging.label })).toHaveAttribute(
      "href",
      expect.stringContaining("https://wa.me/"),
    );
  });
});
