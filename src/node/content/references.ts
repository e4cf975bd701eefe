import path from "node:path";
import type { ContentProblem } from "./problems";
import { locate, type LoadedFile } from "./locate";
import { similar } from "./similar";
import { readsAs } from "./odd-character-values";
import { humanize } from "./humanize";
import { checkAddedPages } from "./page-checks";
import type { JsonSchema } from "./json-schema";

type Row = Record<string, unknown>;

const meant = (typed: string, names: readonly string[]) => {
  const guess = similar(typed, names);
  return guess ? `: did you mean "${guess}"?` : "";
};

const rowOf = (file: LoadedFile): Row =>
  file.data && typeof file.data === "object" && !Array.isArray(file.data) ? (file.data as Row) : {};

const filesOf = (loaded: readonly LoadedFile[], pattern: string) => loaded.filter((f) => f.source.file === pattern);

/**
 * A key in curly quotes or with an odd character counts as the key it reads as: its own file's problem names what is
 * wrong.
 */
const keysOf = (files: readonly LoadedFile[], key: string) =>
  files
    .map((f) => rowOf(f)[key])
    .filter((v): v is string => typeof v === "string")
    .map(readsAs);

/** The entries of a collection a reference may name: those read, and those whose file could not be read. */
const namesOf = (files: readonly LoadedFile[], key: string, unreadable: readonly string[], folder: string) => [
  ...keysOf(files, key),
  ...unreadable
    .filter((f) => path.posix.dirname(f) === folder)
    .map((f) => path.posix.basename(f).replace(/\.ya?ml$/i, "")),
];

/**
 * The two ways out of a reference to a file that is gone (removed, or never added): no longer name it,
 * or put the file back. `studio`: where the studio shows the list.
 */
const wayOut = (place: ContentProblem, studio: string, gone: string, what: string) => {
  const entry = path.posix.basename(gone).replace(/\.yaml$/, "");
  return (
    `If ${what} was removed on purpose, delete this line (line ${place.line} of ${place.file}; in the editing ` +
    `studio: ${studio}, the entry "${entry}"); if not, put ${gone} back (git restore ${gone}, while its removal is not committed)`
  );
};

/**
 * Checks that lists naming entries of other files (the dropdown, galleries) name existing ones.
 * `unreadable`: files (relative to data/) that exist but could not be read; their own problem is reported.
 */
export function checkReferences(
  loaded: readonly LoadedFile[],
  unreadable: readonly string[],
  schemaOf: (source: LoadedFile["source"]) => JsonSchema | undefined,
): ContentProblem[] {
  const services = filesOf(loaded, "services/*.yaml");
  const approvals = filesOf(loaded, "approvals/*.yaml");
  const navigation = filesOf(loaded, "navigation/navigation.yaml")[0];
  const problems: ContentProblem[] = [];
  const servicesFolder = services[0] ? `${path.posix.dirname(services[0].rel)}/` : "data/services/";
  const approvalsFolder = approvals[0] ? `${path.posix.dirname(approvals[0].rel)}/` : "data/approvals/";

  const slugs = namesOf(services, "slug", unreadable, "services");
  const menu = navigation ? rowOf(navigation).servicesMenu : undefined;
  if (navigation && Array.isArray(menu)) {
    const listed = new Set<unknown>();
    menu.forEach((slug, i) => {
      if (typeof slug !== "string") return;
      if (!slugs.includes(slug)) {
        // A misspelt entry is reported as such, not also as the service it leaves out.
        listed.add(similar(slug, slugs));
        // The file of that name is there, with another slug: its own problem says which to change.
        const named = services.find((f) => path.posix.basename(f.rel).replace(/\.ya?ml$/i, "") === slug);
        const guess = meant(slug, slugs);
        const missing = named
          ? `no service has that slug: ${named.rel} has the slug "${String(rowOf(named).slug)}"`
          : `there is no ${servicesFolder}${slug}.yaml${guess}`;
        const place = locate(navigation, ["servicesMenu", i], "");
        const ways =
          named || guess
            ? ""
            : `. ${wayOut(place, `Site and menu → ${humanize(navigation.source.schema)} → ${humanize("servicesMenu")}`, `${servicesFolder}${slug}.yaml`, "the service")}`;
        problems.push({
          ...place,
          message: `names the service "${slug}", but ${missing} (services: ${[...new Set(slugs)].sort().join(", ")})${ways}`,
        });
      } else if (listed.has(slug)) {
        problems.push(locate(navigation, ["servicesMenu", i], `names the service "${slug}" a second time`));
      }
      listed.add(slug);
    });
  }

  const keys = namesOf(approvals, "key", unreadable, "approvals");
  for (const service of services) {
    const gallery = rowOf(service).gallery;
    if (!Array.isArray(gallery)) continue;
    gallery.forEach((key, j) => {
      if (typeof key === "string" && !keys.includes(key)) {
        const guess = meant(key, keys);
        const place = locate(service, ["gallery", j], "");
        const entry = rowOf(service).menuLabel ?? rowOf(service).slug;
        const ways = guess
          ? ""
          : `. ${wayOut(place, `Services → ${String(entry)} → ${humanize("gallery")}`, `${approvalsFolder}${key}.yaml`, "the approval")}`;
        problems.push({
          ...place,
          message: `names the approval "${key}", but there is no ${approvalsFolder}${key}.yaml${guess} (approvals: ${[...keys].sort().join(", ") || "none"})${ways}`,
        });
      }
    });
  }
  problems.push(...checkAddedPages(loaded, unreadable, schemaOf));
  return problems;
}

/**
 * Services the dropdown does not list: a warning, not a problem. The page and its card on /services
 * are published, and the dropdown simply does not offer it, which an editor may want; and removing a
 * service is two saves in the studio (its menu entry, then its file), the first of which must not be
 * refused (docs/editing-content.md, "Removing a service").
 */
export function unlistedServices(loaded: readonly LoadedFile[], unreadable: readonly string[] = []): ContentProblem[] {
  const navigation = filesOf(loaded, "navigation/navigation.yaml")[0];
  const menu = navigation ? rowOf(navigation).servicesMenu : undefined;
  if (!navigation || !Array.isArray(menu)) return [];
  const slugs = namesOf(filesOf(loaded, "services/*.yaml"), "slug", unreadable, "services");
  // A misspelt entry is reported as such (checkReferences), not also as the service it leaves out.
  const listed = new Set<unknown>(
    menu.map((slug) => (typeof slug === "string" && !slugs.includes(slug) ? similar(slug, slugs) : slug)),
  );
  const warnings: ContentProblem[] = [];
  for (const service of filesOf(loaded, "services/*.yaml")) {
    const raw = rowOf(service).slug;
    const slug = typeof raw === "string" ? readsAs(raw) : raw;
    if (typeof slug !== "string" || listed.has(slug)) continue;
    // Named by its file as it is (a copy may be services/x.yml, or named after another slug).
    listed.add(slug);
    warnings.push(
      locate(
        navigation,
        ["servicesMenu"],
        `does not list the service "${slug}" (${service.rel}): its page and its card on /services are published, but the Services dropdown does not offer it. If that is not on purpose, add "- ${slug}" where it belongs in the Services dropdown`,
      ),
    );
  }
  return warnings;
}
