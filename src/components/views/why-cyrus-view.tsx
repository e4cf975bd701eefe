import { useId, useState } from "react";
import { Container, Section } from "../content/page";
import { Paragraphs } from "../content/text";
import * as styles from "./why-cyrus-view.module.css";

export interface WhyCyrusViewProps {
  heading: string;
  intro: readonly string[];
  cards: ReadonlyArray<{ title: string; description: string }>;
}

export function WhyCyrusView({ heading, intro, cards }: WhyCyrusViewProps) {
  return (
    <Section>
      <Container wide>
        <h1>{heading}</h1>
        <Paragraphs items={intro} />
        <ul className={styles.revealGrid}>
          {cards.map((card) => (
            <RevealCard key={card.title} {...card} />
          ))}
        </ul>
      </Container>
    </Section>
  );
}

/**
 * The title shows first; the description appears on hover (CSS), on keyboard focus (CSS
 * :focus-within) and on tap (the button). It stays in the HTML for crawlers and screen readers.
 */
function RevealCard({ title, description }: { title: string; description: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className={styles.revealCard} data-open={open}>
      <h2 className={styles.revealTitle}>
        <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {title}
        </button>
      </h2>
      <p id={id} className={styles.revealText}>
        {description}
      </p>
    </li>
  );
}
