import fs from "node:fs";
import path from "node:path";
import { entryFileName, isCollection, YAML_FILE, YML_FILE } from "./content-files";
import { locate, type LoadedFile } from "./locate";
import { readsAs } from "./odd-character-values";
import type { ContentProblem } from "./problems";

/**
 * What makes each entry of a collection its own: its file is named after its key (services/study-design.yaml
 * has slug: study-design), no two entries share a key, and no two services share an order. A file copied
 * without changing its key, or a slug typed twice, concerns two files: both are reported, each naming
 * the other, and the advice never proposes a file name that is taken, since renaming onto it would
 * overwrite another entry.
 */
export function entryKeyProblems(loaded: readonly LoadedFile[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const collections = new Map<string, LoadedFile[]>();
  for (const file of loaded) {
    if (!isCollection(file.source) || !file.source.key) continue;
    collections.set(file.source.file, [...(collections.get(file.source.file) ?? []), file]);
  }
  for (const files of collections.values()) problems.push(...keyProblems(files));
  problems.push(...orderProblems(collections.get("services/*.yaml") ?? []));
  return problems;
}

type Row = Record<string, unknown>;

const rowOf = (file: LoadedFile): Row =>
  file.data && typeof file.data === "object" && !Array.isArray(file.data) ? (file.data as Row) : {};

/** The file's name without .yaml (or .yml): what its key should be. */
const nameOf = (file: LoadedFile): string => path.basename(file.abs).replace(YAML_FILE, "");

/** "data/services/a.yaml", "data/services/a.yaml and data/services/b.yaml", … */
const listed = (files: readonly LoadedFile[]): string => {
  const names = files.map((f) => f.rel);
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
};

function keyProblems(files: readonly LoadedFile[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const file of files) {
    const key = file.source.key!;
    const what = file.source.schema;
    const value = keyOf(file);
    // A value that reads right (in curly quotes, or with an odd character): the schema's check names what is wrong.
    if (typeof value !== "string" || readsAs(value) !== value) continue;
    const name = nameOf(file);
    const sharing = files.filter((other) => other !== file && keyOf(other) === value);
    // Setting the key to the file's name is safe when no other entry has that key.
    const nameIsFree = !files.some((other) => other !== file && keyOf(other) === name);
    const target = path.join(path.dirname(file.abs), entryFileName(value));
    // Another file (or this one under another spelling) already has the name: renaming onto it destroys it.
    const targetTaken = fs.existsSync(target) && path.resolve(target) !== path.resolve(file.abs);
    const other = `${key} no other ${what} has`;

    if (sharing.length > 0) {
      const start = `${key} "${value}" is also the ${key} of ${listed(sharing)}, and each ${what} needs its own`;
      let advice: string;
      // A copy has the other's order too: said here, once, rather than as a second problem of the file.
      const order = orderOf(file);
      const copiedOrder = typeof order === "number" && sharing.every((o) => orderOf(o) === order);
      // cdms.yaml and cdms.yml: both are named after the slug, and the .yaml one is the one to keep.
      const twin = sharing.find((o) => nameOf(o) === value);
      if (value === name && twin && YML_FILE.test(file.abs)) {
        advice = `${twin.rel} has the same name and slug: if this file is an old copy of it, delete this one; if not, choose a ${other}, and name the file after it, ending in .yaml`;
      } else if (value === name && twin) {
        advice = `this file is named after it, so keep this one: ${twin.rel} is an old copy to delete, or a ${what} to give a ${key} of its own`;
      } else if (value === name) {
        const also = copiedOrder ? ` and the order (${order})` : "";
        advice = `this file is named after it, so keep this one and change the ${key}${also} in ${listed(sharing)}`;
      } else {
        const choose = nameIsFree
          ? `set ${key} to "${name}" to match this file's name (or choose another ${other}, and rename the file to match it)`
          : `choose a ${other}, and rename the file to match it`;
        const free = copiedOrder ? freeOrderAfter(order, files.map(orderOf).filter(isNumber)) : undefined;
        const orderToo = copiedOrder
          ? ` Its order, ${order}, is that ${what}'s too: give it its own${free === undefined ? "" : ` (e.g. ${free})`}.`
          : "";
        advice = `${choose}.${orderToo} Do not rename this file to ${entryFileName(value)}: that would replace the other ${what}`;
      }
      problems.push(locate(file, [key], `${start}: ${advice}`));
      continue;
    }
    if (value === name) continue;
    const start = `${key} "${value}" does not match the file name ${path.basename(file.abs)}: a ${what}'s file is named after its ${key}`;
    let advice: string;
    if (!targetTaken) {
      advice = nameIsFree
        ? `Rename the file to ${entryFileName(value)}, or set ${key} to "${name}"`
        : `Rename the file to ${entryFileName(value)}`;
    } else {
      const choose = nameIsFree
        ? `set ${key} to "${name}", or choose another ${other} and rename the file to match it`
        : `choose a ${other}, and rename the file to match it`;
      advice = `${entryFileName(value)} is another file, so do not rename this one to it: ${choose}`;
    }
    problems.push(locate(file, [key], `${start}. ${advice}`));
  }
  return problems;
}

const orderOf = (file: LoadedFile) => rowOf(file).order;

const isNumber = (value: unknown): value is number => typeof value === "number";

const keyOf = (file: LoadedFile) => rowOf(file)[file.source.key!];

/** Two services cannot share a place in the grid: the order would depend on the file system. */
function orderProblems(services: readonly LoadedFile[]): ContentProblem[] {
  const used = services.map(orderOf).filter(isNumber);
  const problems: ContentProblem[] = [];
  for (const file of services) {
    const order = orderOf(file);
    if (typeof order !== "number") continue;
    const sharing = services.filter((other) => other !== file && orderOf(other) === order);
    // A copy (the same slug too): the slug's problem says it.
    if (sharing.length === 0 || sharing.every((other) => keyOf(other) === keyOf(file))) continue;
    const free = freeOrderAfter(order, used);
    const example = free === undefined ? "" : ` (e.g. ${free} to place this card just after ${listed(sharing)})`;
    problems.push(
      locate(
        file,
        ["order"],
        `${order} is also the order of ${listed(sharing)}: give each service its own number${example}`,
      ),
    );
  }
  return problems;
}

/**
 * A whole number after `order` and before the next order in use, half-way when it can be; none when there is no room.
 */
function freeOrderAfter(order: number, used: readonly number[]): number | undefined {
  const next = Math.min(...used.filter((n) => n > order));
  if (next === Infinity) return Math.floor(order) + 10;
  const free = Math.floor((order + next) / 2);
  return free > order && free < next ? free : undefined;
}
