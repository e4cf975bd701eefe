/**
 * The shell's server HTML works before and without JavaScript (a <details> menu toggle, a dropdown
 * CSS can open, a scroll-to-top link to "#top"), and hydrating it hands over to the scripted form
 * where the visitor left the script-free one, without a hydration error.
 */
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { FloatingButtons } from "../../src/components/shell/floating-buttons";
import { SiteNav } from "../../src/components/shell/site-nav";
import { loadShellData } from "../support/content";
import { serverHtmlHarness } from "../support/server-html";

const data = loadShellData();
const { labels } = data.site;

const siteNav = <SiteNav nav={data.nav} servicesMenu={data.servicesMenu} labels={labels} />;
const floatingButtons = <FloatingButtons site={data.site} />;

const { serverHtml, hydrate } = serverHtmlHarness();
afterEach(() => {
  Object.defineProperty(window, "scrollY", { configurable: true, writable: true, value: 0 });
});

const nav = () => screen.getByRole("navigation", { name: labels.mainNav });
const servicesItem = () => within(nav()).getByRole("link", { name: "Services" }).closest("li")!;
const dropdownList = () => servicesItem().querySelector("ul")!;

describe("the server HTML, before and without JavaScript", () => {
  it("has a <details> menu toggle right before the list, named for each of its states, and no script-only button", () => {
    serverHtml(siteNav);
    const details = nav().querySelector("details");
    expect(details).not.toBeNull();
    expect(details!.open).toBe(false);
    // CSS opens the list as the next sibling of an open <details>: it must stay outside it.
    expect(details!.nextElementSibling).toBe(within(nav()).getAllByRole("list")[0]);
    const summary = details!.querySelector(":scope > summary");
    expect(summary).not.toBeNull();
    expect(details!.children).toHaveLength(1);
    // One name per state; the module CSS shows the one matching the toggle's state.
    expect(summary!.textContent).toBe(labels.menuOpen + labels.menuClose);
    expect(within(nav()).queryAllByRole("button")).toEqual([]);
  });

  it("lists the main links and every dropdown entry, none hidden, so CSS can open the dropdown", () => {
    serverHtml(siteNav);
    expect(within(nav()).getAllByRole("link")).toHaveLength(data.nav.length + data.servicesMenu.length);
    const list = dropdownList();
    expect(list).not.toHaveAttribute("hidden");
    expect(within(list).getAllByRole("link")).toHaveLength(data.servicesMenu.length);
    // The button that would do nothing yet is a placeholder of its size, out of the accessibility tree.
    expect(within(nav()).queryByRole("button", { name: labels.servicesToggle })).toBeNull();
    const placeholder = servicesItem().querySelector(":scope > span");
    expect(placeholder).toHaveAttribute("aria-hidden", "true");
    expect(placeholder).not.toHaveAttribute("tabindex");
    expect(servicesItem()).toHaveAttribute("data-scripted", "false");
  });

  it("has scroll-to-top as a link to #top and the messaging link", () => {
    serverHtml(floatingButtons);
    expect(screen.getByRole("link", { name: labels.scrollTop })).toHaveAttribute("href", "#top");
    expect(screen.getByRole("link", { name: data.site.messaging.label })).toHaveAttribute(
      "href",
      expect.stringContaining("https://wa.me/"),
    );
    expect(screen.queryAllByRole("button")).toEqual([]);
  });
});

describe("hydration hands over to the scripted form", () => {
  it("turns the closed toggle into the hamburger button, closed", () => {
    const container = serverHtml(siteNav);
    hydrate(container, siteNav);
    expect(nav().querySelector("details")).toBeNull();
    const hamburger = within(nav()).getByRole("button", { name: labels.menuOpen });
    expect(hamburger).toHaveAttribute("aria-expanded", "false");
    expect(document.getElementById(hamburger.getAttribute("aria-controls")!)).toHaveAttribute("data-open", "false");
  });

  it("keeps a menu opened before the scripts open, with focus on the hamburger; Escape then closes it", async () => {
    const container = serverHtml(siteNav);
    const details = nav().querySelector("details")!;
    details.open = true;
    act(() => details.querySelector("summary")!.focus());
    hydrate(container, siteNav);

    const hamburger = within(nav()).getByRole("button", { name: labels.menuClose });
    expect(hamburger).toHaveAttribute("aria-expanded", "true");
    expect(hamburger).toHaveFocus();
    const menu = document.getElementById(hamburger.getAttribute("aria-controls")!);
    expect(menu).toHaveAttribute("data-open", "true");

    await userEvent.setup().keyboard("{Escape}");
    expect(hamburger).toHaveAttribute("aria-expanded", "false");
    expect(hamburger).toHaveAccessibleName(labels.menuOpen);
    expect(menu).toHaveAttribute("data-open", "false");
    expect(hamburger).toHaveFocus();
  });

  it("closes the dropdown that no one opened, and gives it its disclosure button", () => {
    const container = serverHtml(siteNav);
    hydrate(container, siteNav);
    const toggle = within(nav()).getByRole("button", { name: labels.servicesToggle });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(dropdownList()).not.toBeVisible();
    expect(servicesItem()).toHaveAttribute("data-scripted", "true");
  });

  it("keeps the dropdown open when focus was inside it; Escape then closes it and focuses its button", async () => {
    const container = serverHtml(siteNav);
    const entry = within(dropdownList()).getByRole("link", { name: "Data Management" });
    act(() => entry.focus());
    hydrate(container, siteNav);

    const toggle = within(nav()).getByRole("button", { name: labels.servicesToggle });
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(dropdownList()).toBeVisible();
    expect(entry).toHaveFocus();

    await userEvent.setup().keyboard("{Escape}");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(dropdownList()).not.toBeVisible();
    expect(toggle).toHaveFocus();
  });

  it("hides scroll-to-top at the top of the page and keeps the messaging link", () => {
    const container = serverHtml(floatingButtons);
    const chat = screen.getByRole("link", { name: data.site.messaging.label });
    hydrate(container, floatingButtons);
    expect(screen.queryByRole("link", { name: labels.scrollTop })).toBeNull();
    expect(screen.getByRole("link", { name: data.site.messaging.label })).toBe(chat);
  });

  it("keeps the same scroll-to-top link on a page already scrolled past 300 px", () => {
    Object.defineProperty(window, "scrollY", { configurable: true, writable: true, value: 800 });
    const container = serverHtml(floatingButtons);
    const toTop = screen.getByRole("link", { name: labels.scrollTop });
    hydrate(container, floatingButtons);
    // The very element of the server HTML: it was neither removed nor added again.
    expect(screen.getByRole("link", { name: labels.scrollTop })).toBe(toTop);
    expect(screen.getByRole("link", { name: data.site.messaging.label })).toBeVisible();
  });
});
