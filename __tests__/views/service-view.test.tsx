import { render, screen, within } from "@testing-library/react";
import { ServiceView } from "../../src/components/views/service-view";
import type { ServiceContent } from "../../src/types/content";
import { content, fakeImage } from "../support/content";

const { services, approvals } = content;
const backLabel = content.site.labels.back!;

/** The same mapping the template makes, from plain YAML data. */
function serviceContent(slug: string): ServiceContent {
  const s = services.find((x) => x.slug === slug);
  if (!s) throw new Error(`no service ${slug}`);
  return {
    slug: s.slug,
    title: s.title,
    intro: s.intro,
    banner: { image: fakeImage(2400, 800), alt: s.bannerAlt },
    sections: s.sections ?? [],
    gallery: (s.gallery ?? []).map((key) => {
      const a = approvals.find((x) => x.key === key)!;
      return { caption: a.caption, alt: a.alt, image: fakeImage(800, 800) };
    }),
  };
}

const renderService = (slug: string) => render(<ServiceView service={serviceContent(slug)} backLabel={backLabel} />);

const textsOf = (elements: HTMLElement[]) => elements.map((el) => el.textContent);

describe.each(services.map((s) => [s.slug, s] as const))("the %s page", (slug, service) => {
  test("shows its banner, title, intro and a Back link to /services", () => {
    renderService(slug);
    expect(screen.getByRole("heading", { level: 1, name: service.title })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: service.bannerAlt })).toBeInTheDocument();
    for (const paragraph of service.intro) expect(screen.getByText(paragraph)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: backLabel })).toHaveAttribute("href", "/services");
  });

  test("shows each section: heading, paragraphs, bullets in their columns, subsections", () => {
    const { container } = renderService(slug);
    const sections = Array.from(container.querySelectorAll("section"));
    expect(sections).toHaveLength(service.sections?.length ?? 0);
    (service.sections ?? []).forEach((expected, i) => {
      const section = within(sections[i]!);
      if (expected.heading) expect(section.getByRole("heading", { level: 2 })).toHaveTextContent(expected.heading);
      for (const paragraph of expected.paragraphs ?? []) expect(section.getByText(paragraph)).toBeInTheDocument();
      if (expected.items) {
        const list = sections[i]!.querySelector(":scope > ul")! as HTMLElement;
        expect(textsOf(within(list).getAllByRole("listitem"))).toEqual(expected.items);
        if (expected.columns && expected.columns > 1)
          expect(list).toHaveAttribute("data-columns", String(expected.columns));
      }
      expect(textsOf(section.queryAllByRole("heading", { level: 3 }))).toEqual(
        (expected.subsections ?? []).map((sub) => sub.heading),
      );
      for (const sub of expected.subsections ?? []) {
        for (const item of [...(sub.items ?? []), ...(sub.paragraphs ?? [])])
          expect(section.getAllByText(item).length).toBeGreaterThan(0);
      }
    });
  });

  test("shows its gallery's captioned images in order", () => {
    const { container } = renderService(slug);
    const gallery = (service.gallery ?? []).map((key) => approvals.find((a) => a.key === key)!);
    expect(textsOf(Array.from(container.querySelectorAll("figcaption")))).toEqual(gallery.map((a) => a.caption));
    for (const approval of gallery) expect(screen.getByRole("img", { name: approval.alt })).toBeInTheDocument();
  });
});

// Spec §9 (business constants): what the Quality Assurance page must state.
test("Quality Assurance states the auditing experience and the report time", () => {
  const { container } = renderService("quality-assurance");
  expect(container).toHaveTextContent(/more than 10 years of auditing experience/);
  expect(container).toHaveTextContent(/within 7 to 10 working days after the audit visit/);
});
