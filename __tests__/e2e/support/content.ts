/**
 * What each route must show, read from the real data files (so an editor's change is followed) and,
 * where the specification fixes it, from the specification itself.
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { specRoutes } from "../../support/routes";
import { servicePath } from "../../../src/utils/routes";
import { projectRoot } from "../../support/serve";

export { specRoutes };

function load<T>(file: string): T {
  return parse(fs.readFileSync(path.join(projectRoot, "data", file), "utf8")) as T;
}

interface ServiceYaml {
  slug: string;
  menuLabel: string;
  cardTitle: string;
  title: string;
  bannerAlt: string;
  intro: string[];
  sections?: Array<{ heading?: string; items?: string[] }>;
  gallery?: string[];
}

export const site = load<{
  name: string;
  tagline: string;
  legalName: string;
  messaging: { number: string; greeting: string; label: string };
  labels: Record<string, string>;
}>("site/site.yaml");
export const navigation = load<{ main: Array<{ label: string; to: string }>; servicesMenu: string[] }>(
  "navigation/navigation.yaml",
);
export const services = load<ServiceYaml[]>("services/services.yaml");
export const approvals = load<Array<{ key: string; caption: string; alt: string }>>("approvals/approvals.yaml");
export const home = load<{
  heading: string;
  carouselLabel: string;
  slides: Array<{ alt: string }>;
  intro: { heading: string };
  founder: { heading: string };
}>("home/home.yaml");
export const about = load<{
  heading: string;
  bannerAlt: string;
  mission: { heading: string };
  vision: { heading: string };
  overview: { heading: string };
}>("about/about.yaml");
export const servicesPage = load<{ heading: string; bannerAlt: string; offeringsHeading: string; gridHeading: string }>(
  "services-page/services-page.yaml",
);
export const activities = load<{
  heading: string;
  bannerAlt: string;
  sections: Array<{ heading: string; items: string[] }>;
}>("activities/activities.yaml");
export const whyCyrus = load<{ heading: string; cards: Array<{ title: string; description: string }> }>(
  "why-cyrus/why-cyrus.yaml",
);
export const contact = load<{
  heading: string;
  bannerAlt: string;
  slogan: string;
  formHeading: string;
  form: Record<string, string>;
  map: { title: string };
  region: { heading: string; carouselLabel: string; slides: Array<{ alt: string }> };
}>("contact/contact.yaml");
export const enquiryResults = load<
  { heading: string; backLink: string } & Record<"sent" | "error" | "incomplete", { title: string }>
>("enquiry-results/enquiry-results.yaml");
export const notFound = load<{ heading: string; links: Array<{ label: string; to: string }> }>(
  "not-found/not-found.yaml",
);

/** Spec §2 (Shell): the main navigation, in order. */
export const specNav = ["Home", "About Us", "Why Cyrus", "Services", "Activities", "Contact Us"];

/** Spec §2 (Shell): the 19 entries of the Services dropdown, in order. */
export const specDropdown = [
  "Clinical Operations",
  "Study Design",
  "Project Management",
  "Clinical Trial Management",
  "Data Management",
  "Clinical Trial Monitoring",
  "Quality Assurance",
  "Outsourced Clinical Trials",
  "Training & Certification",
  "Medical Devices",
  "Artificial Intelligence",
  "CDMS",
  "PhaseII-IV Clinical Trial Management",
  "Regulatory Affairs",
  "Pharmacovigilance",
  "Therapeutic Areas",
  "Committees",
  "scientific Affairs",
  "Regulatory Approvals",
];

export const serviceOf = (route: string) => services.find((s) => servicePath(s.slug) === route);

/** The dropdown's entries as the data orders them: label and route. */
export const dropdownEntries = navigation.servicesMenu.map((slug) => {
  const service = services.find((s) => s.slug === slug);
  if (!service) throw new Error(`navigation.yaml names an unknown service ${slug}`);
  return { label: service.menuLabel, to: servicePath(slug) };
});

export interface RouteContent {
  heading: string;
  /** Headings (any level below h1) that must be visible in the main content. */
  headings: string[];
  /** Texts that must be visible in the main content. */
  texts: string[];
  /** Alternative texts of images that must be visible. */
  images: string[];
}

/** Everything a route must show in its main content. */
export function contentOf(route: string): RouteContent {
  const service = serviceOf(route);
  if (service) {
    const gallery = (service.gallery ?? []).map((key) => approvals.find((a) => a.key === key)!);
    return {
      heading: service.title,
      headings: (service.sections ?? []).flatMap((s) => (s.heading ? [s.heading] : [])),
      texts: [
        service.intro[0]!,
        ...(service.sections ?? []).flatMap((s) => s.items?.slice(0, 1) ?? []),
        ...gallery.map((a) => a.caption),
        site.labels.back!,
      ],
      images: [service.bannerAlt, ...gallery.map((a) => a.alt)],
    };
  }
  switch (route) {
    case "/home":
      return {
        heading: home.heading,
        headings: [home.intro.heading, home.founder.heading],
        texts: [],
        images: [home.slides[0]!.alt],
      };
    case "/aboutus":
      return {
        heading: about.heading,
        headings: [about.mission.heading, about.vision.heading, about.overview.heading],
        texts: [],
        images: [about.bannerAlt],
      };
    case "/services":
      return {
        heading: servicesPage.heading,
        headings: [servicesPage.offeringsHeading, servicesPage.gridHeading, ...services.map((s) => s.cardTitle)],
        texts: [],
        images: [servicesPage.bannerAlt],
      };
    case "/activities":
      return {
        heading: activities.heading,
        headings: activities.sections.map((s) => s.heading),
        texts: activities.sections.flatMap((s) => s.items),
        images: [activities.bannerAlt],
      };
    case "/whycyrus":
      return { heading: whyCyrus.heading, headings: whyCyrus.cards.map((c) => c.title), texts: [], images: [] };
    case "/contact":
      return {
        heading: contact.heading,
        headings: [contact.formHeading, contact.map.title, contact.region.heading],
        texts: [contact.slogan, contact.form.submit!],
        images: [contact.bannerAlt],
      };
    default:
      throw new Error(`no expected content for ${route}`);
  }
}

/** File name of a route's screenshot: "/services/cdms" → "services/cdms". */
export const screenshotName = (route: string) => route.replace(/^\//, "") || "root";
