import type { PageSection } from "../components/sections/types";
import { imageOf } from "./images";

/**
 * An added page's sections as its query returns them (src/templates/added-page.tsx), turned into the
 * section components' props: image files into image data, naming the section when one is not an
 * image, and a card's `image` and `imageAlt` into one picture. The Markdown fields already are trees
 * (the build's resolver made them: src/node/content/markdown-field.ts).
 */
interface ImageFile {
  readonly childImageSharp?: { readonly gatsbyImageData: unknown } | null;
}
type Raw = { readonly type?: string | null } & Readonly<Record<string, unknown>>;
interface RawCard {
  readonly image?: ImageFile | null;
  readonly imageAlt?: string | null;
}

export function toSections(sections: ReadonlyArray<Raw | null> | null | undefined, where: string): PageSection[] {
  return (sections ?? []).flatMap((section, i) => {
    if (!section) return [];
    const at = `${where} sections[${i + 1}]`;
    switch (section.type) {
      case "picture-with-text":
        return [{ ...section, image: imageOf(section.image as ImageFile, `${at} image`) } as unknown as PageSection];
      case "cards": {
        const cards = (section.cards as readonly RawCard[]).map((card, j) => ({
          ...card,
          image: card.image
            ? { image: imageOf(card.image, `${at} cards[${j + 1}] image`), alt: card.imageAlt ?? "" }
            : null,
        }));
        return [{ ...section, cards } as unknown as PageSection];
      }
      case "slideshow": {
        const slides = (section.slides as ReadonlyArray<{ image: ImageFile; alt: string }>).map((slide, j) => ({
          image: imageOf(slide.image, `${at} slides[${j + 1}] image`),
          alt: slide.alt,
        }));
        return [{ ...section, slides } as unknown as PageSection];
      }
      case "call-to-action": {
        // The query names its heading apart (see src/templates/added-page.tsx).
        const { requiredHeading, ...rest } = section;
        return [{ ...rest, heading: requiredHeading } as unknown as PageSection];
      }
      default:
        return [section as unknown as PageSection];
    }
  });
}
