/**
 * Made-up section content for the section components' tests (an added page's own sections are tested
 * with its page), and the site's own details and wording from data/site, as the page passes them.
 */
import type { SiteContact } from "../../src/components/sections/types";
import type { CarouselLabels } from "../../src/types/content";
import type { MarkdownBlock, MarkdownTree } from "../../src/types/markdown";
import { fakeImage, loadShellData } from "./content";

/** A paragraph of plain text. */
export const paragraph = (text: string): MarkdownBlock => ({ t: "p", c: [{ t: "text", v: text }] });

/** Paragraphs of plain text, one per argument. */
export const markdown = (...paragraphs: string[]): MarkdownTree => paragraphs.map(paragraph);

/** An image with its alt text; the alt names its file too, so each is distinct. */
export const picture = (alt: string) => ({ image: fakeImage(1200, 800, alt.replace(/\W+/g, "-")), alt });

const { site } = loadShellData();

export const siteContact: SiteContact = {
  companyName: site.legalName,
  address: site.address,
  mobile: site.mobile,
  telephone: site.telephone,
  email: site.email,
  website: site.website,
  labels: site.labels,
};

export const carouselLabels: CarouselLabels = {
  pause: site.labels.carouselPause,
  play: site.labels.carouselPlay,
  slideOf: site.labels.slideOf,
};
