import { render, screen, within } from "@testing-library/react";
import { ServiceView } from "../../src/components/service/service-view";
import type { ServiceContent } from "../../src/types/content";
import { fakeImage, loadYaml } from "../support/content";

interface ServiceYaml extends Omit<ServiceContent, "banner" | "gallery" | "sections"> {
  bannerAlt: string;
  sections?: ServiceContent["sections"];
  gallery?: string[];
}
const services: ServiceYaml[] = loadYaml("data/services/services.yaml");
const approvals: Array<{ key: string; caption: string; alt: string }> = loadYaml("data/approvals/approvals.yaml");

/** The same mapping the template makes, from plain YAML data. */
function content(slug: string): ServiceContent {
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

const renderService = (slug: string) => render(<ServiceView service={content(slug)} backLabel="Back" />);

test("a service page shows its banner, title, text and a Back link to /services", () => {
  renderService("study-design");
  expect(screen.getByRole("heading", { level: 1, name: "Study Design and Management" })).toBeInTheDocument();
  expect(screen.getByRole("img", { name: services[1]!.bannerAlt })).toBeInTheDocument();
  expect(screen.getByText(services[1]!.intro[0]!)).toBeInTheDocument();
  expect(screen.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/services");
});

test("Quality Assurance states the auditing experience and the report time", () => {
  const { container } = renderService("quality-assurance");
  expect(container).toHaveTextContent(/more than 10 years of auditing experience/);
  expect(container).toHaveTextContent(/within 7 to 10 working days after the audit visit/);
});

test("Therapeutic Areas lists the 22 areas in one three-column list", () => {
  renderService("therapeutic-areas");
  const lists = screen.getAllByRole("list");
  const areas = lists.find((l) => l.getAttribute("data-columns") === "3");
  expect(areas).toBeDefined();
  const items = within(areas!)
    .getAllByRole("listitem")
    .map((li) => li.textContent);
  expect(items).toEqual([
    "Psychiatry",
    "Dermatology",
    "Ophthalmology",
    "Orthopedics",
    "Surgical Oncology",
    "Medical Device Study",
    "Pulmonology",
    "Medical Oncology",
    "General Medicine",
    "General Surgery",
    "Endocrinology",
    "Gastroenterology",
    "Pediatrics",
    "Infectious Diseases",
    "Rheumatology",
    "Cardiology",
    "Hematology",
    "OBGYN/Neurology",
    "Nephrology",
    "ENT Emergency",
    "Pain Management",
    "COVID-19",
  ]);
});

test("Training & Certification has the six subjects, each with one bullet", () => {
  renderService("training-certification");
  const subjects = [
    "Good Clinical Practice (GCP)",
    "Regulatory Compliance (FDA, EMA, ICH)",
    "Clinical Trial Protocols",
    "Data Management (EDC, data integrity)",
    "Safety Monitoring (adverse event reporting, DSMB)",
    "Patient Recruitment and Retention",
  ];
  expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual(subjects);
  for (const subject of subjects) {
    const section = screen.getByRole("heading", { level: 2, name: subject }).closest("section")!;
    expect(within(section).getAllByRole("listitem")).toHaveLength(1);
  }
});

test("Committees has the advisory, scientific and data monitoring committees", () => {
  renderService("committees");
  const section = (name: string) => screen.getByRole("heading", { level: 2, name }).closest("section")!;
  const advisory = within(section("Advisory Committee"));
  expect(advisory.getAllByRole("list").map((l) => within(l).getAllByRole("listitem").length)).toEqual([6, 4]);
  const scientific = within(section("Scientific Committee"));
  expect(scientific.getAllByRole("list").map((l) => within(l).getAllByRole("listitem").length)).toEqual([6, 4]);
  expect(within(section("Data Monitoring Committees (DMC)")).getAllByRole("listitem")).toHaveLength(3);
});

test("CDMS covers biostatistics and medical writing; Scientific Affairs its three subjects", () => {
  const { unmount } = renderService("cdms");
  expect(screen.getByRole("heading", { name: /Biostatistics/ })).toBeInTheDocument();
  expect(screen.getByRole("heading", { name: /Medical Writing/ })).toBeInTheDocument();
  unmount();
  renderService("scientific-affairs");
  for (const name of [/Protocol Development/, /Biostatistics/, /Scientific Writing/]) {
    expect(screen.getByRole("heading", { name })).toBeInTheDocument();
  }
});

test("Regulatory Approvals shows the six captioned images", () => {
  const { container } = renderService("regulatory-approvals");
  expect(container).toHaveTextContent(/IND/);
  expect(container).toHaveTextContent(/NDA/);
  const captions = Array.from(container.querySelectorAll("figcaption")).map((c) => c.textContent);
  expect(captions).toEqual([
    "India Regulatory Approval",
    "EMA Approval",
    "US FDA Approval",
    "NABL Accreditation",
    "NGCMA Approval",
    "WHO Recognition",
  ]);
  for (const approval of approvals) expect(screen.getByRole("img", { name: approval.alt })).toBeInTheDocument();
});
