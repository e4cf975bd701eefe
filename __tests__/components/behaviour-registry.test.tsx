/**
 * @jest-environment node
 *
 * Each component that needs the browser says so while it is rendered at build time (the registry
 * gatsby-ssr.tsx provides: src/hooks/use-behaviour.ts), and the shell every page has does not: its
 * menu, dropdown and floating buttons work without a script. Outside a registry (the browser, the
 * studio's previews) the call does nothing.
 */
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Carousel } from "../../src/components/carousel/carousel";
import { EnquiryForm, type EnquiryFormText } from "../../src/components/enquiry-form/enquiry-form";
import { Shell } from "../../src/components/shell/shell";
import { MapFrame } from "../../src/components/views/map-frame";
import { WhyCyrusView } from "../../src/components/views/why-cyrus-view";
import { BehaviourRegistry, type Behaviour, type RegisteredBehaviours } from "../../src/hooks/use-behaviour";
import { content, fakeImage, loadShellData } from "../support/content";

const shell = loadShellData();
const { labels } = shell.site;

/** The behaviours `element` registers when rendered as Gatsby renders a page at build time. */
function registered(element: ReactElement): Behaviour[] {
  const behaviours: RegisteredBehaviours = new Map();
  renderToStaticMarkup(<BehaviourRegistry.Provider value={behaviours}>{element}</BehaviourRegistry.Provider>);
  return [...behaviours.keys()].sort();
}

const carousel = (
  <Carousel
    label="Slides"
    slides={[1, 2].map((n) => ({ image: fakeImage(1600, 640, `slide-${n}`), alt: `Slide ${n}` }))}
    labels={{ pause: labels.carouselPause, play: labels.carouselPlay, slideOf: labels.slideOf }}
  />
);
const form = <EnquiryForm text={content.contact.form as unknown as EnquiryFormText} endpoint="/api" />;
const map = <MapFrame title="Our Location" src="https://www.openstreetmap.org/export/embed.html?bbox=1" />;

test("the shell with text only registers nothing: such a page ships no script", () => {
  expect(
    registered(
      <Shell data={shell}>
        <h1>About</h1>
      </Shell>,
    ),
  ).toEqual([]);
});

test.each([
  ["the carousel", carousel, ["carousel"]],
  ["the enquiry form", form, ["enquiry-form"]],
  ["the map frame", map, ["map"]],
  ["Why Cyrus's cards", <WhyCyrusView key="why" {...content.whyCyrus} />, ["reveal-cards"]],
])("%s registers what it needs, also inside the shell", (_, element, expected) => {
  expect(registered(element)).toEqual(expected);
  expect(registered(<Shell data={shell}>{element}</Shell>)).toEqual(expected);
});

test("a page with several registers each once", () => {
  expect(
    registered(
      <Shell data={shell}>
        {carousel}
        {form}
        {map}
        {carousel}
      </Shell>,
    ),
  ).toEqual(["carousel", "enquiry-form", "map"]);
});

test("without a registry (the browser, the studio's previews) rendering works as before", () => {
  expect(renderToStaticMarkup(carousel)).toContain('aria-roledescription="carousel"');
});

test("the carousel and the form register the texts their islands show only once scripted; the map and cards none", () => {
  const data = (element: ReactElement) => {
    const behaviours: RegisteredBehaviours = new Map();
    renderToStaticMarkup(<BehaviourRegistry.Provider value={behaviours}>{element}</BehaviourRegistry.Provider>);
    return Object.fromEntries(behaviours);
  };
  expect(data(carousel)).toEqual({
    carousel: { play: labels.carouselPlay, pause: labels.carouselPause, intervalMs: 2500 },
  });
  const text = content.contact.form as unknown as EnquiryFormText;
  expect(data(form)).toEqual({
    "enquiry-form": {
      sending: text.sending,
      requiredMessage: text.requiredMessage,
      successMessage: text.successMessage,
      errorMessage: text.errorMessage,
    },
  });
  expect(data(map)).toEqual({ map: undefined });
  expect(data(<WhyCyrusView {...content.whyCyrus} />)).toEqual({ "reveal-cards": undefined });
});

test("two carousels of one page with different data for the island stop the build", () => {
  const other = (
    <Carousel
      label="Other"
      slides={[1, 2].map((n) => ({ image: fakeImage(1600, 640, `o-${n}`), alt: `O ${n}` }))}
      labels={{ pause: labels.carouselPause, play: labels.carouselPlay, slideOf: labels.slideOf }}
      intervalMs={1000}
    />
  );
  jest.spyOn(console, "error").mockImplementation(() => undefined);
  expect(() => registered(<>{[carousel, other]}</>)).toThrow(/two components of one page register "carousel"/);
});
