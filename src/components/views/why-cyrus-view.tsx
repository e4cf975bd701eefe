import { useEffect, useId, useRef, useState, type MouseEvent } from "react";
import { useBehaviour } from "../../hooks/use-behaviour";
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
 * The title shows first; the description appears on hover, on keyboard focus and on tap, and stays
 * in the HTML for crawlers. What focus shows is what a screen reader is told:
 *
 * - before and without JavaScript, CSS shows the description while focus is in the card. No state can
 *   change then, so the button claims none (an aria-expanded="false" beside a shown description would
 *   be false); the description is its accessible description, announced with the focus that shows it.
 * - with scripts, the description shows exactly while the button says aria-expanded="true" (hover
 *   aside, which shows it to pointers only). Keyboard focus expands the card and leaving collapses it
 *   again; a tap, a click or Enter/Space toggles it, and what they open stays open.
 */
function RevealCard({ title, description }: { title: string; description: string }) {
  useBehaviour("reveal-cards");
  const [openedBy, setOpenedBy] = useState<"focus" | "choice" | null>(null);
  const cardRef = useRef<HTMLLIElement>(null);
  const id = useId();
  const open = openedBy !== null;
  const [scripted, setScripted] = useState(false);
  // The built site's cards are their island's (src/islands/reveal-cards.ts); React runs them in
  // `npm run develop` and the studio's previews, and takes over as the island does. Focus in the card
  // then: CSS was showing the description, so it stays shown.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- whether scripts run is known only in the browser
    setScripted(true);
    if (cardRef.current?.matches(":focus-within")) setOpenedBy("focus");
  }, []);

  const onClick = (event: MouseEvent<HTMLButtonElement>) => {
    // A pointer's press focuses the button first (except in Safari), which has just expanded it:
    // the click keeps it open instead of closing it again. Enter and Space click with detail 0.
    const pointer = event.detail > 0;
    setOpenedBy((was) => (was === "focus" && pointer ? "choice" : was ? null : "choice"));
  };

  return (
    <li ref={cardRef} className={styles.revealCard} data-scripted={scripted} data-open={scripted ? open : undefined}>
      <h2 className={styles.revealTitle}>
        <button
          type="button"
          aria-describedby={scripted ? undefined : id}
          aria-expanded={scripted ? open : undefined}
          aria-controls={scripted ? id : undefined}
          onFocus={() => setOpenedBy((was) => was ?? "focus")}
          onBlur={() => setOpenedBy((was) => (was === "focus" ? null : was))}
          onClick={onClick}
        >
          {title}
        </button>
      </h2>
      <p id={id} className={styles.revealText}>
        {description}
      </p>
    </li>
  );
}
