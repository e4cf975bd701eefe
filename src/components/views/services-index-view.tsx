import { Link } from "gatsby";
import { Picture } from "../content/picture";
import type { ImageWithAlt } from "../../types/content";
import { Banner } from "../content/banner";
import { Container, Section } from "../content/page";
import { BulletList, Paragraphs } from "../content/text";
import * as styles from "./services-index-view.module.css";

export interface ServiceCardData {
  title: string;
  to: string;
  image: ImageWithAlt;
}

export interface ServicesIndexViewProps {
  heading: string;
  banner: ImageWithAlt;
  intro: readonly string[];
  offeringsHeading: string;
  columns: ReadonlyArray<{ items: readonly string[] }>;
  gridHeading: string;
  cards: readonly ServiceCardData[];
}

export function ServicesIndexView(props: ServicesIndexViewProps) {
  return (
    <>
      <Banner {...props.banner} />
      <Section>
        <Container wide>
          <h1>{props.heading}</h1>
          <Paragraphs items={props.intro} />
          <h2>{props.offeringsHeading}</h2>
          <div className={styles.columns}>
            {props.columns.map((column, i) => (
              <BulletList key={i} items={column.items} />
            ))}
          </div>
        </Container>
      </Section>
      <Section tone="alt" labelledBy="services-grid-heading">
        <Container wide>
          <h2 id="services-grid-heading">{props.gridHeading}</h2>
          <ul className={styles.grid}>
            {props.cards.map((card) => (
              <li key={card.to} className={styles.serviceCard}>
                <Picture image={card.image.image} alt={card.image.alt} className={styles.cardImage} />
                <h3 className={styles.cardTitle}>
                  <Link to={card.to}>{card.title}</Link>
                </h3>
              </li>
            ))}
          </ul>
        </Container>
      </Section>
    </>
  );
}
