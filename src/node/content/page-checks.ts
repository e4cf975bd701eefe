import path from "node:path";
import { FORM_OUTCOMES, formResultPath } from "../../enquiry-contract/form-results";
import { servicePath } from "../../utils/routes";
import { locate, type LoadedFile, type Segment } from "./locate";
import { markdownLinesInYaml, parseMarkdownSubset } from "./markdown-subset";
import type { ContentProblem } from "./problems";
import { similar } from "./similar";
import { addedPagePath, FIXED_PAGES, slugRefusal } from "./site-paths";
import type { JsonSchema } from "./json-schema";
import { addressesOf, referenceIndex } from "./reference-index";

/**
 * What the content check knows of the added pages (data/pages/<slug>.yaml) beyond their schema: a
 * slug no fixed page or server path has, their Markdown within the subset, and every link to a page
 * of the site (a section's, or a menu entry's) leading to a page that a production build makes.
 */
type Row = Record<string, unknown>;
const rowOf = (value: unknown): Row =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Row) : {};
const nameOf = (rel: string) => path.posix.basename(rel).replace(/\.ya?ml$/i, "");

interface Target {
  /** The file of an added page still being written (`inProgress`), which production builds leave out. */
  inProgressFile?: string;
}

export function checkAddedPages(
  loaded: readonly LoadedFile[],
  unreadable: readonly string[],
  schemaOf: (source: LoadedFile["source"]) => JsonSchema | undefined,
): ContentProblem[] {
  const pages = loaded.filter((f) => f.source.file === "pages/*.yaml");
  const problems: ContentProblem[] = [];
  const targets = new Map<string, Target>();
  for (const route of Object.keys(FIXED_PAGES)) targets.set(route, {});
  for (const outcome of FORM_OUTCOMES) targets.set(formResultPath(outcome), {});
  for (const service of loaded.filter((f) => f.source.file === "services/*.yaml"))
    for (const address of addressesOf(service.source, service.data)) targets.set(address, {});
  // A file that could not be read has its own problem; links to it are not reported as well.
  for (const file of unreadable) {
    const folder = path.posix.dirname(file);
    if (folder === "services") targets.set(servicePath(nameOf(file)), {});
    if (folder === "pages") targets.set(addedPagePath(nameOf(file)), {});
  }
  for (const page of pages) {
    const { slug, inProgress } = rowOf(page.data);
    if (typeof slug !== "string") continue;
    const refusal = slugRefusal(slug);
    if (refusal) {
      problems.push(
        locate(page, ["slug"], `${refusal}. Choose another slug, and name the file after it (data/pages/<slug>.yaml)`),
      );
      continue;
    }
    for (const address of addressesOf(page.source, page.data))
      targets.set(address, inProgress === true ? { inProgressFile: page.rel } : {});
  }

  const linkProblem = (file: LoadedFile, at: Segment[], href: string, target: string, live: boolean, line?: number) => {
    const found = targets.get(target);
    let message: string | undefined;
    if (!found) {
      const guess = similar(target, [...targets.keys()]);
      const add = /^\/[a-z0-9-]+$/.test(target) ? `, or add the page as data/pages${target}.yaml` : "";
      message =
        `links to "${href}", but no page of the site has that address` +
        (guess ? `: did you mean "${guess}"?` : `. Correct the address${add}, or remove the link`);
    } else if (live && found.inProgressFile) {
      message =
        `links to "${href}", a page still being written (inProgress: true in ${found.inProgressFile}), which the live ` +
        "site does not have. Remove the link until that page is ready, or set its inProgress to false";
    }
    if (!message) return;
    const problem = locate(file, at, message);
    problems.push(line === undefined ? problem : { ...problem, line, column: undefined });
  };

  // The text's own problems: what is outside the Markdown subset.
  for (const page of pages) {
    const sections = rowOf(page.data).sections;
    if (!Array.isArray(sections)) continue;
    sections.forEach((value, i) => {
      const markdown = (at: Segment[]) => {
        const text = page.doc.getIn(at);
        if (typeof text !== "string") return;
        const parsed = parseMarkdownSubset(text, { lineOf: markdownLinesInYaml(page.doc.getIn(at, true), page.lines) });
        for (const p of parsed.problems)
          problems.push({ ...locate(page, at, p.message), line: p.line, column: undefined });
      };
      markdown(["sections", i, "body"]);
      const items = rowOf(value).items;
      if (Array.isArray(items)) items.forEach((_, j) => markdown(["sections", i, "items", j, "answer"]));
    });
  }

  // Every link to a page of the site, wherever a schema has one (a text's, a card's, a button's, a menu
  // entry's: the menu is on every page of the live site), from the index the studio's delete guard reads.
  const byRel = new Map(loaded.map((f) => [f.rel, f]));
  const index = referenceIndex(loaded, schemaOf, {
    markdownOptions: (file, at) => {
      const doc = byRel.get(file.rel)!;
      return { lineOf: markdownLinesInYaml(doc.doc.getIn(at, true), doc.lines) };
    },
  });
  for (const ref of index) {
    if (ref.kind !== "address") continue;
    const file = byRel.get(ref.file)!;
    const live = rowOf(file.data).inProgress !== true;
    linkProblem(file, ref.at, ref.href, ref.address, live, ref.line);
  }
  return problems;
}
