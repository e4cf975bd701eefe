/**
 * The shell works without JavaScript, the same everywhere (the built site, which ships no script for
 * it, `npm run develop` and the studio's previews, which hydrate it): a <details> menu toggle, a
 * dropdown CSS shows and its button opens as a popover, a scroll-to-top link to "#top" and the
 * messaging link. Hydrating it changes
 * nothing and reports no error.
 */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { FloatingButtons } from "../../src/components/shell/floating-buttons";
import { SiteNav } from "../../src/components/shell/site-nav";
import { loadShellData } from "../support/content";
import { serverHtmlHarness } from "../support/server-html";

const data = loadShellData();
const { labels } = data.site;
// From the data (data/navigation/navigation.yaml and the services' menuLabel), as the Layout's query reads it.
const MAIN_NAV = data.nav.map((item) => [item.label, item.to]);
const SERVICES_MENU = data.servicesMenu.map((entry) => [entry.label, entry.to]);

// jsdom cannot navigate; a real click would otherwise log "Not implemented: navigation".
const stopNavigation = (e: Event) => e.preventDefault();
beforeAll(() => document.addEventListener("click", stopNavigation));
afterAll(() => document.removeEventListener("click", stopNavigation));

const linkPairs = (container: HTMLElement) =>
  within(container)
    .queryAllByRole("link")
    .map((link) => [link.textContent, link.getAttribute("href")]);

const siteNav = <SiteNav nav={data.nav} servicesMenu={data.servicesMenu} labels={labels} />;
const floatingButtons = <FloatingButtons site={data.site} />;

const { serverHtml, hydrate } = serverHtmlHarness();
afterEach(() => {
  Object.defineProperty(window, "scrollY", { configurable: true, writable: true, value: 0 });
});

const nav = () => screen.getByRole("navigation", { name: labels.mainNav });
const servicesItem = () => within(nav()).getByRole("link", { name: "Services" }).closest("li")!;
const dropdownList = () => servicesItem().querySelector("ul")!;
const dropdownToggle = () => within(servicesItem()).getByRole("button", { name: labels.servicesToggle });

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
    // The one button is the dropdown's, which HTML alone makes work (the next test).
    expect(within(nav()).getAllByRole("button")).toEqual([dropdownToggle()]);
  });

  it("lists the main links in order with their exact paths, and every dropdown entry, none hidden, so CSS can open the dropdown", () => {
    serverHtml(siteNav);
    expect(within(nav()).getAllByRole("link")).toHaveLength(data.nav.length + data.servicesMenu.length);
    const list = dropdownList();
    expect(linkPairs(nav()).filter(([, href]) => !list.querySelector(`a[href="${href}"]`))).toEqual(MAIN_NAV);
    expect(list).not.toHaveAttribute("hidden");
    expect(linkPairs(list)).toEqual(SERVICES_MENU);
  });

  it("has beside the Services link a button that opens the dropdown as a popover, by HTML alone", () => {
    serverHtml(siteNav);
    const toggle = dropdownToggle();
    const list = dropdownList();
    // Link, button, list: Tab reaches the button right after the link, and the open list right after it.
    expect([...servicesItem().children]).toEqual([within(nav()).getByRole("link", { name: "Services" }), toggle, list]);
    expect(toggle).toHaveAttribute("type", "button");
    expect(list.id).not.toBe("");
    expect(toggle).toHaveAttribute("popovertarget", list.id);
    expect(document.querySelectorAll(`[id="${list.id}"]`)).toHaveLength(1);
    expect(list).toHaveAttribute("popover", "auto");
    // The browser gives an invoker its expanded state; an aria-expanded attribute could only go stale.
    expect(toggle).not.toHaveAttribute("aria-expanded");
  });

  it("has scroll-to-top as a link to #top and the messaging link, with the greeting for the provider's number, in a new tab", () => {
    serverHtml(floatingButtons);
    expect(screen.getByRole("link", { name: labels.scrollTop })).toHaveAttribute("href", "#top");
    const chat = screen.getByRole("link", { name: data.site.messaging.label });
    expect(chat).toHaveAttribute(
      "href",
      `https://wa.me/${data.site.messaging.number}?text=Hello%2C%20I%20need%20help!`,
    );
    expect(chat).toHaveAttribute("target", "_blank");
    expect(chat).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.queryAllByRole("button")).toEqual([]);
  });
});

describe("hydrating it (npm run develop, the studio's previews) changes nothing", () => {
  it("keeps the <details> toggle as the visitor left it, and the dropdown's button as it was", () => {
    const container = serverHtml(siteNav);
    const details = nav().querySelector("details")!;
    details.open = true;
    const before = container.innerHTML;
    hydrate(container, siteNav);
    expect(container.innerHTML).toBe(before);
    expect(nav().querySelector("details")).toBe(details);
    expect(details.open).toBe(true);
    expect(within(nav()).getAllByRole("button")).toEqual([dropdownToggle()]);
  });

  it("keeps the dropdown's entries in the list CSS opens, and following one leaves the list as it is", async () => {
    const container = serverHtml(siteNav);
    hydrate(container, siteNav);
    const before = container.innerHTML;
    await userEvent.setup().click(within(dropdownList()).getByRole("link", { name: "Study Design" }));
    expect(container.innerHTML).toBe(before);
    expect(linkPairs(dropdownList())).toEqual(SERVICES_MENU);
  });

  it("keeps both floating links, the same elements, whatever the scroll position", () => {
    Object.defineProperty(window, "scrollY", { configurable: true, writable: true, value: 800 });
    const container = serverHtml(floatingButtons);
    const toTop = screen.getByRole("link", { name: labels.scrollTop });
    const chat = screen.getByRole("link", { name: data.site.messaging.label });
    const before = container.innerHTML;
    hydrate(container, floatingButtons);
    expect(container.innerHTML).toBe(before);
    expect(screen.getByRole("link", { name: labels.scrollTop })).toBe(toTop);
    expect(screen.getByRole("link", { name: data.site.messaging.label })).toBe(chat);
  });
});
