import { markdownText } from "./markdown-text";
import type { PageSection, QuestionFields } from "./types";

/** schema.org FAQPage of questions and answers, the answers as plain text (their words, no markup). */
export function faqPageJsonLd(items: readonly QuestionFields[]): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: markdownText(item.answer) },
    })),
  };
}

/** A page's FAQPage: the questions of all its questions sections in order, or null when it has none. */
export function pageFaqJsonLd(sections: readonly PageSection[]): Record<string, unknown> | null {
  const items = sections.flatMap((s) => (s.type === "questions" ? s.items : []));
  return items.length > 0 ? faqPageJsonLd(items) : null;
}
