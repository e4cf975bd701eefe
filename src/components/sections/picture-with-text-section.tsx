import { useId } from "react";
import { Picture } from "../content/picture";
import { Container, Section } from "../content/page";
import { Markdown } from "./markdown";
import type { PictureWithTextSectionFields, Tone } from "./types";
import * as styles from "./picture-with-text-section.module.css";

export interface PictureWithTextSectionProps extends PictureWithTextSectionFields {
  /** The page's first large picture (first section, no banner): fetched at once and first. */
  eager?: boolean;
  tone?: Tone;
}

/**
 * A picture beside its text on wide screens, on the side the editor chose; on phones the two stack
 * in the same order, so what is read and what is seen never disagree.
 */
export function PictureWithTextSection(props: PictureWithTextSectionProps) {
  const { image, alt, caption, side, heading, body, eager = false, tone } = props;
  const headingId = useId();
  const picture = (
    <figure key="picture" className={styles.figure}>
      <Picture image={image} alt={alt} className={styles.image} loading={eager ? "eager" : "lazy"} priority={eager} />
      {caption && <figcaption className={styles.caption}>{caption}</figcaption>}
    </figure>
  );
  const text = (
    <div key="text" className={styles.text}>
      {heading && <h2 id={headingId}>{heading}</h2>}
      <Markdown tree={body} />
    </div>
  );
  return (
    <Section tone={tone} labelledBy={heading ? headingId : undefined}>
      <Container wide>
        <div className={styles.split}>{side === "right" ? [text, picture] : [picture, text]}</div>
      </Container>
    </Section>
  );
}
