import type { ComponentProps } from "react";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { Carousel } from "../../src/components/carousel/carousel";
import type { CarouselLabels, ImageWithAlt } from "../../src/types/content";
import { fakeImage, loadShellData } from "../support/content";
import { islandOn } from "../support/island";

// Four made-up slides: the behaviour under test does not depend on the pictures (a page's own slides
// are tested with its view).
const home = {
  carouselLabel: "Test slideshow",
  slides: ["First", "Second", "Third", "Fourth"].map((name) => ({ alt: `${name} slide` })),
};
const { labels: site } = loadShellData().site;
const labels: CarouselLabels = {
  pause: site.carouselPause,
  play: site.carouselPlay,
  slideOf: site.slideOf,
};
const slides: ImageWithAlt[] = home.slides.map((slide, i) => ({
  image: fakeImage(1600, 640, `slide-${i + 1}`),
  alt: slide.alt,
}));

/** The accessible name of slide n, as the site's wording (site.yaml labels.slideOf) gives it. */
const nth = (n: number) => labels.slideOf.replace("{n}", String(n)).replace("{total}", String(home.slides.length));

type Variant = "component" | "island";
let variant: Variant = "component";

/**
 * The carousel as the browser gets it: the component rendered by React (`npm run develop`, the
 * studio's previews), or its server HTML taken over by its island (src/islands/carousel.ts, every
 * built page), with the data the component registered for it.
 */
function renderCarousel(props: Partial<ComponentProps<typeof Carousel>> = {}) {
  const element = <Carousel label={home.carouselLabel} slides={slides} labels={labels} {...props} />;
  if (variant === "component") render(element);
  else islandOn(element, "carousel");
  const region = screen.getByRole("region", { name: home.carouselLabel });
  return { region, control: within(region).getAllByRole("button")[0] as HTMLElement };
}

/** The accessible name of the one displayed slide; fails if not exactly one is displayed. */
function activeSlide(): string | null {
  const shown = screen.getAllByRole("group");
  expect(shown).toHaveLength(1);
  return (shown[0] as HTMLElement).getAttribute("aria-label");
}

const advance = (ms: number) =>
  act(() => {
    jest.advanceTimersByTime(ms);
  });

function preferReducedMotion() {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...original(query),
    matches: query === "(prefers-reduced-motion: reduce)",
  })) as typeof window.matchMedia;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe.each<Variant>(["component", "island"])("Carousel (%s)", (v) => {
  beforeEach(() => {
    variant = v;
  });

  it("is a labelled carousel of slides named '1 of 4' to '4 of 4' (the site's slideOf wording)", () => {
    const { region } = renderCarousel();
    expect(region).toHaveAttribute("aria-roledescription", "carousel");
    const all = within(region).getAllByRole("group", { hidden: true });
    expect(all.map((s) => s.getAttribute("aria-label"))).toEqual([1, 2, 3, 4].map(nth));
    all.forEach((s) => expect(s).toHaveAttribute("aria-roledescription", "slide"));
  });

  it("displays only the first slide at first, with its image", () => {
    renderCarousel();
    expect(activeSlide()).toBe(nth(1));
    expect(screen.getByRole("img", { name: home.slides[0]?.alt })).toBeVisible();
    expect(screen.queryByRole("img", { name: home.slides[1]?.alt })).toBeNull();
  });

  it("advances every 2500 ms and wraps from the last slide to the first", () => {
    renderCarousel();
    advance(2499);
    expect(activeSlide()).toBe(nth(1));
    advance(1);
    expect(activeSlide()).toBe(nth(2));
    advance(2500);
    expect(activeSlide()).toBe(nth(3));
    advance(2500);
    expect(activeSlide()).toBe(nth(4));
    advance(2500);
    expect(activeSlide()).toBe(nth(1));
  });

  it("honours a custom interval", () => {
    renderCarousel({ intervalMs: 1000 });
    advance(1000);
    expect(activeSlide()).toBe(nth(2));
  });

  it("puts the pause button first and stops on pause until play is pressed", () => {
    const { region, control } = renderCarousel();
    const slidesBox = within(region).getAllByRole("group", { hidden: true })[0]?.parentElement;
    expect(control).toHaveAccessibleName(labels.pause);
    expect(slidesBox).toHaveAttribute("aria-live", "off");

    fireEvent.click(control);
    expect(control).toHaveAccessibleName(labels.play);
    expect(slidesBox).toHaveAttribute("aria-live", "polite");
    advance(10_000);
    expect(activeSlide()).toBe(nth(1));

    fireEvent.click(control);
    expect(control).toHaveAccessibleName(labels.pause);
    advance(2500);
    expect(activeSlide()).toBe(nth(2));
  });

  it("resumes at once when play is pressed, even with the pointer and focus still on it", () => {
    const { region, control } = renderCarousel();
    fireEvent.click(control);
    fireEvent.mouseEnter(region);
    act(() => control.focus());
    fireEvent.click(control);
    advance(2500);
    expect(activeSlide()).toBe(nth(2));
  });

  it("pauses while the pointer is over it and resumes when it leaves", () => {
    const { region } = renderCarousel();
    advance(1000);
    fireEvent.mouseEnter(region);
    advance(10_000);
    expect(activeSlide()).toBe(nth(1));
    fireEvent.mouseLeave(region);
    advance(2500);
    expect(activeSlide()).toBe(nth(2));
  });

  it("pauses while focus is inside and resumes when focus leaves", () => {
    const { region, control } = renderCarousel();
    act(() => control.focus());
    advance(10_000);
    expect(activeSlide()).toBe(nth(1));
    expect(within(region).getAllByRole("group")[0]?.parentElement).toHaveAttribute("aria-live", "polite");
    act(() => control.blur());
    advance(2500);
    expect(activeSlide()).toBe(nth(2));
  });

  it("does not rotate when the visitor prefers reduced motion, until play is pressed", () => {
    preferReducedMotion();
    const { control } = renderCarousel();
    expect(control).toHaveAccessibleName(labels.play);
    advance(10_000);
    expect(activeSlide()).toBe(nth(1));
    fireEvent.click(control);
    advance(2500);
    expect(activeSlide()).toBe(nth(2));
  });

  it("loads the first image eagerly with high priority and the rest lazily, without React warnings", () => {
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const { region } = renderCarousel();
    const images = within(region)
      .getAllByRole("group", { hidden: true })
      .map((slide) => slide.querySelector("img"));
    expect(images[0]).toHaveAttribute("loading", "eager");
    expect(images[0]).toHaveAttribute("fetchpriority", "high");
    images.slice(1).forEach((img) => {
      expect(img).toHaveAttribute("loading", "lazy");
      expect(img).not.toHaveAttribute("fetchpriority");
    });
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
  });

  it("loads every slide lazily and none with high priority when marked lazy (below the fold)", () => {
    const { region } = renderCarousel({ lazy: true });
    const images = within(region)
      .getAllByRole("group", { hidden: true })
      .map((slide) => slide.querySelector("img"));
    expect(images).toHaveLength(home.slides.length);
    images.forEach((img) => {
      expect(img).toHaveAttribute("loading", "lazy");
      expect(img).not.toHaveAttribute("fetchpriority");
    });
  });
});
