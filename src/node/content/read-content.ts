import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { servicePath } from "../../utils/routes";
import type { RawFile } from "../../types/content";
import { contentFiles, filesOf, type ContentSource } from "./content-files";
import { addedPagePath } from "./site-paths";

/**
 * The content of data/ as plain data, for the tests and the benchmark: what each page must show,
 * every route, the dropdown. It reads the files the build reads (content-files.ts), so a test follows
 * the editors' changes, and a service added as a file is a route, a card and a dropdown entry here
 * too. The site itself reads the same files through GraphQL. Image fields are the paths as written.
 */

export type ServiceData = RawFile<Queries.ServicesYaml>;
export type ApprovalData = RawFile<Queries.ApprovalsYaml>;
export type AddedPageData = RawFile<Queries.PagesYaml>;

export interface Content {
  site: RawFile<Queries.SiteYaml>;
  navigation: RawFile<Queries.NavigationYaml>;
  /** In the order of the cards on /services. */
  services: ServiceData[];
  approvals: ApprovalData[];
  /** The pages editors added (data/pages/), those still being written (`inProgress`) included. */
  pages: AddedPageData[];
  home: RawFile<Queries.HomeYaml>;
  about: RawFile<Queries.AboutYaml>;
  servicesPage: RawFile<Queries.ServicesPageYaml>;
  activities: RawFile<Queries.ActivitiesYaml>;
  whyCyrus: RawFile<Queries.WhyCyrusYaml>;
  contact: RawFile<Queries.ContactYaml>;
  notFound: RawFile<Queries.NotFoundYaml>;
  enquiryResults: RawFile<Queries.EnquiryResultsYaml>;
}

const KEYS: Record<keyof Content, string> = {
  site: "site/site.yaml",
  navigation: "navigation/navigation.yaml",
  services: "services/*.yaml",
  approvals: "approvals/*.yaml",
  pages: "pages/*.yaml",
  home: "home/home.yaml",
  about: "about/about.yaml",
  servicesPage: "services-page/services-page.yaml",
  activities: "activities/activities.yaml",
  whyCyrus: "why-cyrus/why-cyrus.yaml",
  contact: "contact/contact.yaml",
  notFound: "not-found/not-found.yaml",
  enquiryResults: "enquiry-results/enquiry-results.yaml",
};

export const projectDataDir = path.resolve(__dirname, "../../../data");

function readSource(dataDir: string, source: ContentSource): unknown[] {
  return filesOf(dataDir, source).map((file) => parse(fs.readFileSync(path.join(dataDir, file), "utf8")) as unknown);
}

/** Reads every content file under `dataDir` (data/ by default). */
export function readContent(dataDir: string = projectDataDir): Content {
  const content: Record<string, unknown> = {};
  for (const [name, file] of Object.entries(KEYS)) {
    const source = contentFiles.find((s) => s.file === file);
    if (!source) throw new Error(`read-content: ${file} is not in content-files.ts`);
    const entries = readSource(dataDir, source);
    content[name] = source.key ? entries : entries[0];
  }
  const result = content as unknown as Content;
  result.services.sort((a, b) => a.order - b.order);
  return result;
}

/** The Services dropdown as the data orders it: label and route of each entry. */
export function dropdownEntries(content: Content): Array<{ label: string; to: string }> {
  return content.navigation.servicesMenu.map((slug) => {
    const service = content.services.find((s) => s.slug === slug);
    if (!service) throw new Error(`navigation.yaml names an unknown service ${slug}`);
    return { label: service.menuLabel, to: servicePath(slug) };
  });
}

/**
 * Every content route the site builds: the pages of the main navigation, then each service's page,
 * then each added page (data/pages/) a production build makes, or, with `inProgress`, each one
 * `gatsby develop` makes (those still being written too).
 */
export function siteRoutes(content: Content, { inProgress = false } = {}): string[] {
  const routes = [
    ...content.navigation.main.map((item) => item.to),
    ...content.services.map((s) => servicePath(s.slug)),
  ];
  const added = content.pages.filter((page) => inProgress || !page.inProgress).map((page) => addedPagePath(page.slug));
  return [...new Set([...routes, ...added])];
}
