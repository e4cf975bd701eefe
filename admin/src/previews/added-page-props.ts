/**
 * An added page (data/pages/<slug>.yaml) as the editor types it, turned into the props of the site's
 * view, as src/templates/added-page.tsx does with its query: here the Markdown is parsed in the
 * studio (the site gets it ready-made from the build), by the same parser and subset.
 */
import type { AddedPageViewProps } from "../../../src/components/views/added-page-view";
import type { PageSection } from "../../../src/components/sections/types";
import { parseMarkdownSubset } from "../../../src/node/content/markdown-subset";
import { PLACES } from "./images";
import { carouselLabels, objs, siteContact, str, type Context, type Data } from "./props";

const markdown = (value: unknown) => parseMarkdownSubset(str(value)).tree;

function section(data: Data, ctx: Context): PageSection | undefined {
  const image = (path: unknown, place: (typeof PLACES)[keyof typeof PLACES]) => ctx.image(str(path), place);
  switch (str(data.type)) {
    case "text":
      return { type: "text", body: markdown(data.body) };
    case "picture-with-text":
      return {
        type: "picture-with-text",
        image: image(data.image, PLACES.picture),
        alt: str(data.alt),
        caption: str(data.caption) || null,
        side: data.side === "right" ? "right" : "left",
        heading: str(data.heading) || null,
        body: markdown(data.body),
      };
    case "cards":
      return {
        type: "cards",
        heading: str(data.heading) || null,
        cards: objs(data.cards).map((card) => ({
          title: str(card.title),
          text: str(card.text),
          link: str(card.link) || null,
          linkLabel: str(card.linkLabel) || null,
          image: card.image ? { image: image(card.image, PLACES.card), alt: str(card.imageAlt) } : null,
        })),
      };
    case "call-to-action":
      return {
        type: "call-to-action",
        heading: str(data.heading),
        text: str(data.text),
        buttonLabel: str(data.buttonLabel),
        buttonTo: str(data.buttonTo) || null,
      };
    case "questions":
      return {
        type: "questions",
        heading: str(data.heading) || null,
        items: objs(data.items).map((item) => ({ question: str(item.question), answer: markdown(item.answer) })),
      };
    case "slideshow":
      return {
        type: "slideshow",
        label: str(data.label),
        slides: objs(data.slides).map((slide) => ({ image: image(slide.image, PLACES.slide), alt: str(slide.alt) })),
      };
    case "contact-strip":
      return { type: "contact-strip", heading: str(data.heading) || null };
    default:
      // A section whose type is not chosen yet shows nothing.
      return undefined;
  }
}

export function addedPageProps(data: Data, ctx: Context): AddedPageViewProps {
  return {
    title: str(data.title),
    banner: data.banner ? { image: ctx.image(str(data.banner), PLACES.banner), alt: str(data.bannerAlt) } : null,
    sections: objs(data.sections).flatMap((s) => section(s, ctx) ?? []),
    contact: siteContact(ctx.site),
    carouselLabels: carouselLabels(ctx.site),
  };
}
