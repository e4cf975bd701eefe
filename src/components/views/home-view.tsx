import type { CarouselLabels, ImageWithAlt } from "../../types/content";
import { Carousel } from "../carousel/carousel";
import { Container, Section } from "../content/page";
import { BulletList, Paragraphs } from "../content/text";
import * as styles from "./home-view.module.css";

export interface HomeViewProps {
  heading: string;
  carouselLabel: string;
  carouselLabels: CarouselLabels;
  slides: readonly ImageWithAlt[];
  intro: { heading: string; paragraphs: readonly string[] };
  founder: {
    heading: string;
    paragraphs: readonly string[];
    industriesIntro: string;
    industries: readonly string[];
    closing: readonly string[];
    signature: string;
  };
}

export function HomeView({ heading, carouselLabel, carouselLabels, slides, intro, founder }: HomeViewProps) {
  return (
    <>
      <h1 className="visually-hidden">{heading}</h1>
      <Carousel label={carouselLabel} slides={slides} labels={carouselLabels} />
      <Section labelledBy="intro-heading">
        <Container>
          <h2 id="intro-heading">{intro.heading}</h2>
          <Paragraphs items={intro.paragraphs} />
        </Container>
      </Section>
      <Section tone="alt" labelledBy="founder-heading">
        <Container>
          <h2 id="founder-heading">{founder.heading}</h2>
          <Paragraphs items={founder.paragraphs} />
          <p>{founder.industriesIntro}</p>
          <BulletList items={founder.industries} />
          <Paragraphs items={founder.closing} />
          <p className={styles.signature}>{founder.signature}</p>
        </Container>
      </Section>
    </>
  );
}
