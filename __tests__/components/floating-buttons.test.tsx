import { act, fireEvent, render, screen } from "@testing-library/react";
import { FloatingButtons } from "../../src/components/shell/floating-buttons";
import { loadShellData } from "../support/content";

const { site } = loadShellData();
const scrollTopName = site.labels.scrollTop;
const chatName = site.messaging.label;

function setScrollY(y: number) {
  Object.defineProperty(window, "scrollY", { configurable: true, writable: true, value: y });
}

/** Scrolls to `y` and lets the next animation frame run, as a browser would. */
function scrollTo(y: number) {
  setScrollY(y);
  fireEvent.scroll(window);
  act(() => {
    jest.advanceTimersByTime(20);
  });
}

// A link to "#top", so that it works before and without JavaScript (see floating-buttons.server.test.tsx).
const scrollTopLink = () => screen.queryByRole("link", { name: scrollTopName });
const chatLink = () => screen.queryByRole("link", { name: chatName });

beforeEach(() => {
  jest.useFakeTimers();
  setScrollY(0);
  (window.scrollTo as jest.Mock).mockClear();
});

afterEach(() => {
  jest.useRealTimers();
  setScrollY(0);
});

describe("FloatingButtons", () => {
  it("starts with scroll-to-top hidden and the messaging button visible", () => {
    render(<FloatingButtons site={site} />);
    expect(scrollTopLink()).toBeNull();
    expect(chatLink()).toBeVisible();
  });

  it("opens the messaging app with the greeting for the provider's number, in a new tab", () => {
    render(<FloatingButtons site={site} />);
    const href = chatLink()?.getAttribute("href") ?? "";
    expect(href).toBe(`https://wa.me/${site.messaging.number}?text=Hello%2C%20I%20need%20help!`);
    expect(href).toContain("text=Hello%2C%20I%20need%20help!");
    expect(chatLink()).toHaveAttribute("target", "_blank");
    expect(chatLink()).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("shows both buttons past 300 px of scroll and hides both at 300 px or less", () => {
    render(<FloatingButtons site={site} />);
    scrollTo(301);
    expect(scrollTopLink()).toBeVisible();
    expect(chatLink()).toBeVisible();

    scrollTo(300);
    expect(scrollTopLink()).toBeNull();
    expect(chatLink()).toBeNull();

    scrollTo(1200);
    expect(scrollTopLink()).toBeVisible();
    expect(chatLink()).toBeVisible();

    scrollTo(0);
    expect(scrollTopLink()).toBeNull();
    expect(chatLink()).toBeNull();
  });

  it("applies a scroll on the next animation frame (throttled)", () => {
    render(<FloatingButtons site={site} />);
    setScrollY(500);
    fireEvent.scroll(window);
    expect(scrollTopLink()).toBeNull();
    act(() => {
      jest.advanceTimersByTime(20);
    });
    expect(scrollTopLink()).toBeVisible();
  });

  it("shows both at once when the page opens already scrolled down", () => {
    setScrollY(800);
    render(<FloatingButtons site={site} />);
    expect(scrollTopLink()).toBeVisible();
    expect(chatLink()).toBeVisible();
  });

  it("scrolls smoothly to the top, instead of following its #top link", () => {
    render(<FloatingButtons site={site} />);
    scrollTo(900);
    expect(scrollTopLink()).toHaveAttribute("href", "#top");
    // fireEvent returns false when a handler prevented the default action: no "#top" in the address.
    expect(fireEvent.click(scrollTopLink() as HTMLElement)).toBe(false);
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: "smooth" });
  });

  it("jumps to the top without animation when the visitor prefers reduced motion", () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: query === "(prefers-reduced-motion: reduce)",
    })) as typeof window.matchMedia;
    render(<FloatingButtons site={site} />);
    scrollTo(900);
    fireEvent.click(scrollTopLink() as HTMLElement);
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: "auto" });
  });

  it("stops listening to scroll once removed", () => {
    const remove = jest.spyOn(window, "removeEventListener");
    const { unmount } = render(<FloatingButtons site={site} />);
    unmount();
    expect(remove).toHaveBeenCalledWith("scroll", expect.any(Function));
    remove.mockRestore();
  });
});
