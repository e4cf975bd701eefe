import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { SiteNav } from "../../src/components/shell/site-nav";
import { loadShellData } from "../support/content";

const data = loadShellData();
const { labels } = data.site;

// From the data (data/navigation/navigation.yaml and the services' menuLabel), as the Layout's query reads it.
const MAIN_NAV = data.nav.map((item) => [item.label, item.to]);
const SERVICES_MENU = data.servicesMenu.map((entry) => [entry.label, entry.to]);

// jsdom cannot navigate; a real click would otherwise log "Not implemented: navigation".
const stopNavigation = (e: Event) => e.preventDefault();
beforeAll(() => document.addEventListener("click", stopNavigation));
afterAll(() => document.removeEventListener("click", stopNavigation));

function renderNav() {
  const user = userEvent.setup();
  render(<SiteNav nav={data.nav} servicesMenu={data.servicesMenu} labels={labels} />);
  const nav = screen.getByRole("navigation", { name: "Main" });
  const toggle = within(nav).getByRole("button", { name: labels.servicesToggle });
  const hamburger = within(nav).getByRole("button", { name: labels.menuOpen });
  const controlled = (button: HTMLElement) => {
    const el = document.getElementById(button.getAttribute("aria-controls") ?? "");
    if (!el) throw new Error("aria-controls does not point to an element");
    return el;
  };
  return { user, nav, toggle, hamburger, dropdown: controlled(toggle), menu: controlled(hamburger) };
}

const linkPairs = (container: HTMLElement) =>
  within(container)
    .queryAllByRole("link")
    .map((link) => [link.textContent, link.getAttribute("href")]);

describe("SiteNav", () => {
  it("lists the main entries in order with their exact paths", () => {
    const { nav } = renderNav();
    expect(linkPairs(nav)).toEqual(MAIN_NAV);
  });

  it("starts with the dropdown closed and its entries hidden", () => {
    const { nav, toggle, dropdown } = renderNav();
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(dropdown).not.toBeVisible();
    expect(within(nav).queryByRole("link", { name: data.servicesMenu[0]!.label })).toBeNull();
  });

  it("opens and closes the dropdown with the Services button, showing the services in order", async () => {
    const { user, toggle, dropdown } = renderNav();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(dropdown).toBeVisible();
    expect(linkPairs(dropdown)).toEqual(SERVICES_MENU);

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(dropdown).not.toBeVisible();
  });

  it("toggles with the keyboard as well", async () => {
    const { user, toggle } = renderNav();
    // Focus entering the item opens the list; Escape closes it, then Enter and Space toggle.
    act(() => toggle.focus());
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{Escape}");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.keyboard("{Enter}");
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await user.keyboard(" ");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("opens on hover of the Services item and closes when the pointer leaves", async () => {
    const { user, nav, toggle, dropdown } = renderNav();
    await user.hover(within(nav).getByRole("link", { name: "Services" }));
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(dropdown).toBeVisible();
    await user.hover(within(nav).getByRole("link", { name: "Home" }));
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("opens when focus enters the item and closes when focus leaves it", async () => {
    const { user, nav, toggle } = renderNav();
    act(() => within(nav).getByRole("link", { name: "Why Cyrus" }).focus());
    await user.tab();
    expect(within(nav).getByRole("link", { name: "Services" })).toHaveFocus();
    expect(toggle).toHaveAttribute("aria-expanded", "true");

    act(() => within(nav).getByRole("link", { name: "Activities" }).focus());
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("closes when the visitor clicks elsewhere, even where a click does not move focus", () => {
    // fireEvent, like Safari, leaves focus where it was, so no blur closes the list here.
    const { toggle } = renderNav();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    fireEvent.pointerDown(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    fireEvent.pointerDown(document.body);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("closes on Escape and returns focus to the Services button", async () => {
    const { user, toggle, dropdown } = renderNav();
    await user.click(toggle);
    act(() => within(dropdown).getByRole("link", { name: "Data Management" }).focus());
    await user.keyboard("{Escape}");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveFocus();
  });

  it("toggles the mobile menu with the hamburger button", async () => {
    const { user, hamburger, menu } = renderNav();
    expect(hamburger).toHaveAttribute("aria-expanded", "false");
    expect(menu).toHaveAttribute("data-open", "false");

    await user.click(hamburger);
    expect(hamburger).toHaveAttribute("aria-expanded", "true");
    expect(hamburger).toHaveAccessibleName(labels.menuClose);
    expect(menu).toHaveAttribute("data-open", "true");

    await user.click(hamburger);
    expect(hamburger).toHaveAttribute("aria-expanded", "false");
    expect(hamburger).toHaveAccessibleName(labels.menuOpen);
    expect(menu).toHaveAttribute("data-open", "false");
  });

  it.each(MAIN_NAV.map(([label]) => label))("closes the menu when %s is chosen", async (label) => {
    const { user, nav, hamburger, menu } = renderNav();
    await user.click(hamburger);
    await user.click(within(nav).getByRole("link", { name: label }));
    expect(hamburger).toHaveAttribute("aria-expanded", "false");
    expect(menu).toHaveAttribute("data-open", "false");
  });

  it("closes the menu and the dropdown when a service is chosen", async () => {
    const { user, hamburger, toggle, dropdown, menu } = renderNav();
    await user.click(hamburger);
    await user.click(toggle);
    await user.click(within(dropdown).getByRole("link", { name: "Study Design" }));
    expect(menu).toHaveAttribute("data-open", "false");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("closes the menu on Escape and returns focus to the hamburger", async () => {
    const { user, nav, hamburger } = renderNav();
    await user.click(hamburger);
    act(() => within(nav).getByRole("link", { name: "Home" }).focus());
    await user.keyboard("{Escape}");
    expect(hamburger).toHaveAttribute("aria-expanded", "false");
    expect(hamburger).toHaveFocus();
  });
});
