import { useId } from "react";
import { Container, Section } from "../content/page";
import { Markdown } from "./markdown";
import type { QuestionsSectionFields, Tone } from "./types";
import * as styles from "./questions-section.module.css";

export interface QuestionsSectionProps extends QuestionsSectionFields {
  tone?: Tone;
}

/**
 * Questions and answers, each a <details> that the browser opens and closes itself: it works
 * without JavaScript, by keyboard, and the browser's find-in-page opens the answer it finds.
 * Its structured data: faqPageJsonLd (questions-json-ld.ts).
 */
export function QuestionsSection({ heading, items, tone }: QuestionsSectionProps) {
  const headingId = useId();
  return (
    <Section tone={tone} labelledBy={heading ? headingId : undefined}>
      <Container>
        {heading && <h2 id={headingId}>{heading}</h2>}
        <div className={styles.list}>
          {items.map((item, i) => (
            <details key={i} className={styles.item}>
              <summary className={styles.question}>{item.question}</summary>
              <div className={styles.answer}>
                <Markdown tree={item.answer} />
              </div>
            </details>
          ))}
        </div>
      </Container>
    </Section>
  );
}
