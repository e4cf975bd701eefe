import type { ImageWithAlt } from "../../types/content";
import { Banner } from "../content/banner";
import { Container, Section } from "../content/page";
import { BulletList, Paragraphs } from "../content/text";
import * as cardStyles from "./card.module.css";
import * as styles from "./about-view.module.css";

interface HeadedText {
  heading: string;
  text: string;
}

export interface AboutViewProps {
  heading: string;
  banner: ImageWithAlt;
  intro: readonly string[];
  mission: HeadedText;
  vision: HeadedText;
  overview: { heading: string; paragraphs: readonly string[]; itemsHeading: string; items: readonly string[] };
}

export function AboutView({ heading, banner, intro, mission, vision, overview }: AboutViewProps) {
  return (
    <>
      <Banner {...banner} />
      <Section>
        <Container wide>
          <h1>{heading}</h1>
          <Paragraphs items={intro} />
          <div className={styles.cardPair}>
            {[mission, vision].map((card) => (
              <section key={card.heading} className={cardStyles.card}>
                <h2>{card.heading}</h2>
                <p>{card.text}</p>
              </section>
            ))}
          </div>
        </Container>
      </Section>
      <Section tone="alt" labelledBy="overview-heading">
        <Container>
          <h2 id="overview-heading">{overview.heading}</h2>
          <Paragraphs items={overview.paragraphs} />
          <h3>{overview.itemsHeading}</h3>
          <BulletList items={overview.items} columns={2} />
        </Container>
      </Section>
    </>
  );
}
