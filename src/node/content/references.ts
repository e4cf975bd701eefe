import type { ContentProblem } from "./problems";
import { locate, type LoadedFile } from "./locate";

type Row = Record<string, unknown>;

const rows = (file: LoadedFile | undefined): Row[] =>
  Array.isArray(file?.data) ? (file.data.filter((r) => r && typeof r === "object") as Row[]) : [];

/** Duplicate keys within a list file, reported on every entry after the first. */
function duplicates(file: LoadedFile | undefined, key: string, what: string): ContentProblem[] {
  if (!file) return [];
  const firstSeen = new Map<unknown, number>();
  const problems: ContentProblem[] = [];
  rows(file).forEach((row, i) => {
    const value = row[key];
    if (typeof value !== "string") return;
    const first = firstSeen.get(value);
    if (first === undefined) firstSeen.set(value, i);
    else {
      problems.push(
        locate(
          file,
          [i, key],
          `${key} "${value}" is already used by entry ${first + 1}: each ${what} needs its own ${key}`,
        ),
      );
    }
  });
  return problems;
}

/** Checks that lists naming entries of other files (the dropdown, galleries) name existing ones. */
export function checkReferences(loaded: ReadonlyMap<string, LoadedFile>): ContentProblem[] {
  const services = loaded.get("services/services.yaml");
  const approvals = loaded.get("approvals/approvals.yaml");
  const navigation = loaded.get("navigation/navigation.yaml");
  const problems = [...duplicates(services, "slug", "service"), ...duplicates(approvals, "key", "approval")];

  const slugs = rows(services)
    .map((r) => r.slug)
    .filter((s): s is string => typeof s === "string");
  const menu = (navigation?.data as Row | undefined)?.servicesMenu;
  if (navigation && services && Array.isArray(menu)) {
    const listed = new Set<unknown>();
    menu.forEach((slug, i) => {
      if (typeof slug !== "string") return;
      if (!slugs.includes(slug)) {
        problems.push(
          locate(
            navigation,
            ["servicesMenu", i],
            `names the service "${slug}", which is not in ${services.rel} (its slugs: ${slugs.join(", ")})`,
          ),
        );
      } else if (listed.has(slug)) {
        problems.push(locate(navigation, ["servicesMenu", i], `names the service "${slug}" a second time`));
      }
      listed.add(slug);
    });
    for (const slug of slugs) {
      if (!listed.has(slug)) {
        problems.push(
          locate(
            navigation,
            ["servicesMenu"],
            `does not list the service "${slug}" of ${services.rel}: every service belongs in the dropdown`,
          ),
        );
      }
    }
  }

  if (services && approvals) {
    const keys = rows(approvals).map((r) => r.key);
    rows(services).forEach((row, i) => {
      if (!Array.isArray(row.gallery)) return;
      row.gallery.forEach((key, j) => {
        if (typeof key === "string" && !keys.includes(key)) {
          problems.push(
            locate(
              services,
              [i, "gallery", j],
              `names the approval "${key}", which is not in ${approvals.rel} (its keys: ${keys.join(", ")})`,
            ),
          );
        }
      });
    });
  }
  return problems;
}
