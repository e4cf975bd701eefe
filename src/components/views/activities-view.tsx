import { Picture } from "../content/picture";
import type { ImageWithAlt } from "../../types/content";
import { Banner } from "../content/banner";
import { Container, Section } from "../content/page";
import { BulletList, Paragraphs } from "../content/text";
import * as styles from "./activities-view.module.css";

export interface ActivitiesViewProps {
  heading: string;
  banner: ImageWithAlt;
  intro: readonly string[];
  sections: ReadonlyArray<{ heading: string; items: readonly string[]; image: ImageWithAlt }>;
}

export function ActivitiesView({ heading, banner, intro, sections }: ActivitiesViewProps) {
  return (
    <>
      <Banner {...banner} />
      <Section>
        <Container wide>
          <h1>{heading}</h1>
          <Paragraphs items={intro} />
          {sections.map((section) => (
            <section key={section.heading} className={styles.activity}>
              <div>
                <h2>{section.heading}</h2>
                <BulletList items={section.items} />
              </div>
              <Picture image={section.image.image} alt={section.image.alt} className={styles.activityImage} />
            </section>
          ))}
        </Container>
      </Section>
    </>
  );
}
