import { fireEvent, render, screen, within } from "@testing-library/react";
import { pageFaqJsonLd, faqPageJsonLd } from "../../../src/components/sections/questions-json-ld";
import { QuestionsSection } from "../../../src/components/sections/questions-section";
import type { PageSection, QuestionFields } from "../../../src/components/sections/types";
import { markdown } from "../../support/sections";

const items: QuestionFields[] = [
  { question: "Where are you?", answer: markdown("In Chennai.") },
  {
    question: "What do you do?",
    answer: [
      {
        t: "p",
        c: [
          { t: "text", v: "We run " },
          { t: "strong", c: [{ t: "text", v: "trials" }] },
          { t: "text", v: ":" },
        ],
      },
      {
        t: "ul",
        items: [[{ t: "p", c: [{ t: "text", v: "monitoring" }] }], [{ t: "p", c: [{ t: "text", v: "data" }] }]],
      },
      {
        t: "p",
        c: [{ t: "link", href: "/contact", c: [{ t: "text", v: "Ask us" }] }, { t: "br" }, { t: "text", v: "soon." }],
      },
    ],
  },
];

test("each pair is a <details> whose <summary> is the question, closed until opened, the answer inside", () => {
  const { container } = render(<QuestionsSection heading="Questions" items={items} />);
  const region = screen.getByRole("region", { name: "Questions" });
  expect(within(region).getByRole("heading", { level: 2 })).toHaveTextContent("Questions");
  const details = [...container.querySelectorAll("details")];
  expect(details.map((d) => d.querySelector(":scope > summary")?.textContent)).toEqual(items.map((i) => i.question));
  details.forEach((d) => expect(d).not.toHaveAttribute("open"));
  expect(details[0]).toHaveTextContent("In Chennai.");
  // The browser's own behaviour, no script of ours: the summary opens its details.
  fireEvent.click(screen.getByText("Where are you?"));
  expect(details[0]).toHaveAttribute("open");
});

test("without a heading, the questions stand on their own, no region or heading", () => {
  render(<QuestionsSection items={items} />);
  expect(screen.queryByRole("heading")).toBeNull();
  expect(screen.queryByRole("region")).toBeNull();
});

test("FAQPage structured data: one Question per pair, its answer as plain text", () => {
  expect(faqPageJsonLd(items)).toEqual({
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: [
      { "@type": "Question", name: "Where are you?", acceptedAnswer: { "@type": "Answer", text: "In Chennai." } },
      {
        "@type": "Question",
        name: "What do you do?",
        acceptedAnswer: { "@type": "Answer", text: "We run trials:\n\nmonitoring\ndata\n\nAsk us\nsoon." },
      },
    ],
  });
});

test("a page's FAQPage gathers the questions of all its questions sections, and is null without any", () => {
  const sections: PageSection[] = [
    { type: "questions", items: [items[0]!] },
    { type: "text", body: markdown("Between.") },
    { type: "questions", heading: "More", items: [items[1]!] },
  ];
  expect(pageFaqJsonLd(sections)).toEqual(faqPageJsonLd(items));
  expect(pageFaqJsonLd([sections[1]!])).toBeNull();
});
