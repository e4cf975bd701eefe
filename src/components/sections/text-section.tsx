import { Container, Section } from "../content/page";
import { Markdown } from "./markdown";
import type { TextSectionFields, Tone } from "./types";

export interface TextSectionProps extends TextSectionFields {
  tone?: Tone;
}

/** Headings (h2, h3), paragraphs, lists and links, in the readable column of the fixed pages. */
export function TextSection({ body, tone }: TextSectionProps) {
  return (
    <Section tone={tone}>
      <Container>
        <Markdown tree={body} />
      </Container>
    </Section>
  );
}
