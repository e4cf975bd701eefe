/**
 * The sections of an added page (data/pages/<slug>.yaml `sections`) as the section components take
 * them: plain data, so that the page template, the studio's preview and the tests can render them
 * without Gatsby. Optional fields also accept null, which is what GraphQL gives for a field the YAML
 * leaves out, so the template can pass its query's result on as it is.
 */
import type { Address, ImageWithAlt, Labels } from "../../types/content";
import type { MarkdownTree } from "../../types/markdown";

/** Background of a section's band: the page alternates them, as the fixed pages do. */
export type Tone = "plain" | "alt";

export interface TextSectionFields {
  body: MarkdownTree;
}

/** `image` and `alt` at the top, as the YAML has them. */
export interface PictureWithTextSectionFields extends ImageWithAlt {
  caption?: string | null;
  /** The picture's side on wide screens (default left); on phones it comes first or last. */
  side?: "left" | "right" | null;
  heading?: string | null;
  body: MarkdownTree;
}

export interface CardFields {
  title: string;
  text: string;
  /** A path of the site, such as /contact. */
  link?: string | null;
  /** The link's visible words (default "Read more"); the card's title is added for screen readers. */
  linkLabel?: string | null;
  /** The YAML's `image` and `imageAlt`. */
  image?: ImageWithAlt | null;
}

export interface CardsSectionFields {
  heading?: string | null;
  /** 2 to 6 (the content check refuses any other number). */
  cards: readonly CardFields[];
}

export interface CallToActionSectionFields {
  heading: string;
  text: string;
  buttonLabel: string;
  /** A path of the site (default /contact). */
  buttonTo?: string | null;
}

export interface QuestionFields {
  question: string;
  answer: MarkdownTree;
}

export interface QuestionsSectionFields {
  heading?: string | null;
  items: readonly QuestionFields[];
}

export interface SlideshowSectionFields {
  /** The carousel's accessible name. */
  label: string;
  slides: readonly ImageWithAlt[];
}

export interface ContactStripSectionFields {
  /** Default "Contact us". */
  heading?: string | null;
}

export type PageSection =
  | ({ type: "text" } & TextSectionFields)
  | ({ type: "picture-with-text" } & PictureWithTextSectionFields)
  | ({ type: "cards" } & CardsSectionFields)
  | ({ type: "call-to-action" } & CallToActionSectionFields)
  | ({ type: "questions" } & QuestionsSectionFields)
  | ({ type: "slideshow" } & SlideshowSectionFields)
  | ({ type: "contact-strip" } & ContactStripSectionFields);

export type PageSectionType = PageSection["type"];

/** The company's details from data/site/site.yaml, as the contact strip shows them. */
export interface SiteContact {
  companyName: string;
  address: Address;
  mobile: string;
  telephone: string;
  email: string;
  website?: string | null;
  labels: Pick<Labels, "addressHeading" | "mobile" | "telephone" | "email" | "website">;
}
