/**
 * What each route must show, read from the real data files through the one loader (so an editor's
 * change is followed, and an added service is tested like the others).
 */
import { content, dropdown, routes, serviceAt } from "../../support/content";

export { routes };
export const {
  site,
  navigation,
  services,
  approvals,
  home,
  about,
  servicesPage,
  activities,
  whyCyrus,
  contact,
  enquiryResults,
  notFound,
} = content;

/** The main navigation's labels, in order. */
export const navLabels = navigation.main.map((item) => item.label);

/** The Services dropdown's entries as the data orders them: label and route. */
export const dropdownEntries = dropdown;
export const dropdownLabels = dropdown.map((entry) => entry.label);

export const serviceOf = serviceAt;

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
