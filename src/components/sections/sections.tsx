import type { CarouselLabels } from "../../types/content";
import { CallToActionSection } from "./call-to-action-section";
import { CardsSection } from "./cards-section";
import { ContactStripSection } from "./contact-strip-section";
import { PictureWithTextSection } from "./picture-with-text-section";
import { QuestionsSection } from "./questions-section";
import { SlideshowSection } from "./slideshow-section";
import { TextSection } from "./text-section";
import type { PageSection, SiteContact, Tone } from "./types";

export interface SectionsProps {
  sections: readonly PageSection[];
  /** The company's details, for contact strips. */
  contact: SiteContact;
  /** The carousel's wording, for slideshows. */
  carouselLabels: CarouselLabels;
  /**
   * The page shows a banner above its sections: that is its first large picture, fetched first. Without
   * one, the first section's picture or first slide is.
   */
  hasBanner?: boolean;
}

/** An added page's sections in their order, in bands of alternating background as on the fixed pages. */
export function Sections({ sections, contact, carouselLabels, hasBanner = false }: SectionsProps) {
  return (
    <>
      {sections.map((section, i) => (
        <OneSection
          key={i}
          section={section}
          tone={i % 2 === 0 ? "plain" : "alt"}
          contact={contact}
          carouselLabels={carouselLabels}
          first={!hasBanner && i === 0}
        />
      ))}
    </>
  );
}

interface OneSectionProps {
  section: PageSection;
  tone: Tone;
  contact: SiteContact;
  carouselLabels: CarouselLabels;
  /** The page's first large picture is this section's. */
  first: boolean;
}

function OneSection({ section, tone, contact, carouselLabels, first }: OneSectionProps) {
  switch (section.type) {
    case "text":
      return <TextSection {...section} tone={tone} />;
    case "picture-with-text":
      return <PictureWithTextSection {...section} tone={tone} eager={first} />;
    case "cards":
      return <CardsSection {...section} tone={tone} />;
    case "call-to-action":
      return <CallToActionSection {...section} tone={tone} />;
    case "questions":
      return <QuestionsSection {...section} tone={tone} />;
    case "slideshow":
      return <SlideshowSection {...section} tone={tone} carouselLabels={carouselLabels} lazy={!first} />;
    case "contact-strip":
      return <ContactStripSection {...section} tone={tone} contact={contact} />;
    default: {
      // A type added to PageSection without a component here fails to compile.
      const unknown: never = section;
      return unknown;
    }
  }
}
