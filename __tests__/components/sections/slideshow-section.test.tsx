import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { SlideshowSection } from "../../../src/components/sections/slideshow-section";
import { carouselLabels, picture } from "../../support/sections";

const slides = ["First", "Second", "Third"].map((name) => picture(`${name} slide`));

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** The one slide displayed, by its image's alt text. */
const shown = () => screen.getAllByRole("group").map((slide) => within(slide).getByRole("img").getAttribute("alt"));

test("the site's carousel, named by its label, rotating until its pause button stops it", () => {
  render(<SlideshowSection label="Our offices" slides={slides} carouselLabels={carouselLabels} />);
  const region = screen.getByRole("region", { name: "Our offices" });
  expect(region).toHaveAttribute("aria-roledescription", "carousel");
  expect(within(region).getAllByRole("group", { hidden: true })).toHaveLength(slides.length);
  expect(shown()).toEqual(["First slide"]);
  act(() => {
    jest.advanceTimersByTime(2500);
  });
  expect(shown()).toEqual(["Second slide"]);

  fireEvent.click(within(region).getByRole("button", { name: carouselLabels.pause }));
  act(() => {
    jest.advanceTimersByTime(10_000);
  });
  expect(shown()).toEqual(["Second slide"]);
  expect(within(region).getByRole("button", { name: carouselLabels.play })).toBeInTheDocument();
});

test("the first slide loads eagerly, as home's does, unless the slideshow is marked lazy", () => {
  const { container, rerender } = render(
    <SlideshowSection label="Our offices" slides={slides} carouselLabels={carouselLabels} />,
  );
  expect(container.querySelector("img")).toHaveAttribute("loading", "eager");
  rerender(<SlideshowSection label="Our offices" slides={slides} carouselLabels={carouselLabels} lazy />);
  expect(container.querySelector("img")).toHaveAttribute("loading", "lazy");
});
