import type { CarouselLabels } from "../../types/content";
import { Carousel } from "../carousel/carousel";
import { Container, Section } from "../content/page";
import type { SlideshowSectionFields, Tone } from "./types";

export interface SlideshowSectionProps extends SlideshowSectionFields {
  /** The site's wording of the carousel's buttons and slides (data/site/site.yaml labels). */
  carouselLabels: CarouselLabels;
  /**
   * Below the page's first screen, or under a banner: every slide loads lazily, so that none competes
   * with the page's largest picture (as the contact page's carousel does).
   */
  lazy?: boolean;
  tone?: Tone;
}

/** The home page's carousel: rotates, pauses on hover, focus and its pause button, still under reduced motion. */
export function SlideshowSection({ label, slides, carouselLabels, lazy = false, tone }: SlideshowSectionProps) {
  return (
    <Section tone={tone}>
      <Container wide>
        <Carousel label={label} slides={slides} labels={carouselLabels} lazy={lazy} />
      </Container>
    </Section>
  );
}
