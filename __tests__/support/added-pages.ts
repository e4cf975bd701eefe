import path from "node:path";
import { sectionKinds } from "../../tools/docs/section-types";
import { content } from "./content";
import { projectRoot } from "./serve";

/** The section types of an added page, as data/schemas/page.schema.json names them (read, never listed here). */
export const SECTION_TYPES: readonly string[] = sectionKinds(path.join(projectRoot, "data")).map((kind) => kind.type);

type Page = (typeof content.pages)[number];

/**
 * The page of data/pages/ that holds a section of every type: the example the repository ships (kept
 * out of production), which the tests build in a copy of data/ made ready. Found by its content, not
 * its name, so that editors may rename or replace it.
 */
export function everySectionPage(): Page {
  const page = content.pages.find((p) => SECTION_TYPES.every((type) => p.sections.some((s) => s.type === type)));
  if (!page) throw new Error("no page of data/pages/ has a section of every type: the tests' fixture page is gone");
  return page;
}

/** A section as its YAML has it (the generated types do not narrow by `type`). */
export interface RawSection {
  type: string;
  heading?: string;
  body?: string;
  alt?: string;
  caption?: string;
  text?: string;
  buttonLabel?: string;
  buttonTo?: string;
  label?: string;
  cards?: ReadonlyArray<{ title: string; text: string; link?: string; linkLabel?: string; imageAlt?: string }>;
  items?: ReadonlyArray<{ question: string; answer: string }>;
  slides?: ReadonlyArray<{ alt: string }>;
}

/** A page's sections, as its YAML has them. */
export const rawSections = (page: Page): readonly RawSection[] => page.sections as unknown as readonly RawSection[];
