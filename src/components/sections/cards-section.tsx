import { Link } from "gatsby";
import { useId } from "react";
import { Picture } from "../content/picture";
import { Container, Section } from "../content/page";
import type { CardsSectionFields, Tone } from "./types";
import * as styles from "./cards-section.module.css";

export interface CardsSectionProps extends CardsSectionFields {
  tone?: Tone;
}

export const defaultLinkLabel = "Read more";

/** Two to six cards in a list: each a title, its text, and optionally a picture and a link. */
export function CardsSection({ heading, cards, tone }: CardsSectionProps) {
  const headingId = useId();
  // Without the section's heading, the cards' titles are the headings that follow the page's title.
  const Title = heading ? "h3" : "h2";
  return (
    <Section tone={tone} labelledBy={heading ? headingId : undefined}>
      <Container wide>
        {heading && <h2 id={headingId}>{heading}</h2>}
        <ul className={styles.grid}>
          {cards.map((card, i) => (
            <li key={i} className={styles.card}>
              {card.image && <Picture image={card.image.image} alt={card.image.alt} />}
              <div className={styles.body}>
                <Title className={styles.title}>{card.title}</Title>
                <p>{card.text}</p>
                {card.link && (
                  <Link to={card.link} className={styles.link}>
                    {card.linkLabel || defaultLinkLabel}
                    {/* "Read more" alone, in a screen reader's list of links, says nothing of where it goes. */}
                    <span className="visually-hidden"> – {card.title}</span>
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ul>
      </Container>
    </Section>
  );
}
