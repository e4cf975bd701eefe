import type { CarouselLabels, ImageWithAlt } from "../../types/content";
import { Banner } from "../content/banner";
import { Container, Section } from "../content/page";
import { Sections } from "../sections/sections";
import type { PageSection, SiteContact } from "../sections/types";

export interface AddedPageViewProps {
  title: string;
  banner?: ImageWithAlt | null;
  sections: readonly PageSection[];
  contact: SiteContact;
  carouselLabels: CarouselLabels;
}

/** A page an editor composed in data/pages/<slug>.yaml: its banner, its title, then its sections. */
export function AddedPageView({ title, banner, sections, contact, carouselLabels }: AddedPageViewProps) {
  return (
    <>
      {banner && <Banner {...banner} />}
      <Section>
        <Container wide>
          <h1>{title}</h1>
        </Container>
      </Section>
      <Sections sections={sections} contact={contact} carouselLabels={carouselLabels} hasBanner={Boolean(banner)} />
    </>
  );
}
