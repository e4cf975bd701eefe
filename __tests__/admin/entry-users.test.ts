/**
 * @jest-environment node
 *
 * Who names an entry (admin/src/entry-users.ts, delete-guard.ts): the studio's relation fields, from
 * the configuration generated from data/schemas, and the entries of data/ whose values name it. An
 * entry named somewhere is not deleted, and the words say where; one named nowhere is.
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { refusalToDelete, type EntryReader } from "../../admin/src/delete-guard";
import { deleteRefusal, missingEntry, relationPlaces, usagesOf, valuesAt } from "../../admin/src/entry-users";
import { cmsCollections, type CmsCollection } from "../../src/node/content/cms-config";

const dataDir = path.resolve(__dirname, "../../data");
const collections = cmsCollections(dataDir);
const read = (file: string) =>
  parse(fs.readFileSync(path.join(dataDir, "..", file), "utf8")) as Record<string, unknown>;
const site = collections.find((c) => c.files?.some((f) => f.name === "navigation"))!;
const navigation = site.files!.find((f) => f.name === "navigation")!;
const menu = read(navigation.file).servicesMenu as string[];
const services = collections.find((c) => c.name === "services")!;
const serviceFile = (slug: string) => `${services.folder}/${slug}.yaml`;

test("the Services menu and the galleries are the places naming entries of other collections", () => {
  expect(relationPlaces(navigation.fields)).toEqual([
    { path: ["servicesMenu", "*"], labels: ["Services menu"], collection: "services", valueField: "slug" },
  ]);
  expect(relationPlaces(services.fields!)).toEqual([
    { path: ["gallery", "*"], labels: ["Gallery"], collection: "approvals", valueField: "key" },
  ]);
  expect(valuesAt({ a: [{ b: "x" }, { b: "y" }, "z"] }, ["a", "*", "b"])).toEqual(["x", "y"]);
});

test("a service of the menu is named there, in the studio's words; one not listed is named nowhere", () => {
  const holder = {
    where: `${site.label} → ${navigation.label}`,
    file: navigation.file,
    fields: navigation.fields,
    data: read(navigation.file),
  };
  const usages = usagesOf("services", read(serviceFile(menu[0]!)), [holder]);
  expect(usages).toEqual([
    { place: "Site and menu → Navigation → Services menu", file: "data/navigation/navigation.yaml" },
  ]);
  expect(deleteRefusal("service", usages)).toBe(
    "Site and menu → Navigation → Services menu lists this service (data/navigation/navigation.yaml): remove it there first, then delete it.",
  );
  expect(usagesOf("services", { slug: "not-listed" }, [holder])).toEqual([]);
  expect(deleteRefusal("service", [])).toBeUndefined();
  expect(missingEntry("service", "gone", "data/services/gone.yaml")).toBe(
    '"gone" is not a service any more: there is no data/services/gone.yaml. Remove this entry (×), or choose another service.',
  );
});

/** Decap's state and backend as the guard reads them, over the files of data/. */
function decap(all: readonly CmsCollection[]) {
  const imm = (c: CmsCollection) => ({
    get: (key: string) => (c as unknown as Record<string, unknown>)[key],
    toJS: () => c,
  });
  const state = { collections: { toList: () => ({ toArray: () => all.map(imm) }) } };
  const reads: string[] = [];
  const reader: EntryReader = {
    getEntry: async (_state, collection, slug) => {
      const c = (collection as ReturnType<typeof imm>).toJS();
      const file = c.files?.find((f) => f.name === slug)?.file ?? `${c.folder}/${slug}.yaml`;
      reads.push(file);
      return { data: read(file) };
    },
    listAllEntries: async (collection) => {
      const c = (collection as ReturnType<typeof imm>).toJS();
      reads.push(`${c.folder}/`);
      return fs
        .readdirSync(path.join(dataDir, "..", c.folder!))
        .filter((f) => f.endsWith(".yaml"))
        .map((f) => ({ slug: f.replace(/\.yaml$/, ""), data: read(`${c.folder}/${f}`) }));
    },
  };
  return { state, reader, reads, imm };
}

test("deleting: a listed service and an approval of a gallery are refused, naming who lists them", async () => {
  const { state, reader, reads, imm } = decap(collections);
  expect(await refusalToDelete(reader, state, imm(services), menu[0]!)).toBe(
    `Site and menu → Navigation → Services menu lists this service (${navigation.file}): remove it there first, then delete it.`,
  );
  // Only what may name a service is read: Navigation (the services' galleries name approvals).
  expect(reads).toEqual([navigation.file, serviceFile(menu[0]!)]);

  const approvals = collections.find((c) => c.name === "approvals")!;
  const withGallery = fs
    .readdirSync(path.join(dataDir, "services"))
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => ({ slug: f.replace(/\.yaml$/, ""), data: read(`data/services/${f}`) }))
    .find((s) => Array.isArray(s.data.gallery))!;
  const key = (withGallery.data.gallery as string[])[0]!;
  expect(await refusalToDelete(reader, state, imm(approvals), key)).toBe(
    `Services → ${String(withGallery.data.menuLabel)} → Gallery lists this approval (${serviceFile(withGallery.slug)}): remove it there first, then delete it.`,
  );
});

test("deleting: an entry nothing names is not refused", async () => {
  // Navigation as if it no longer listed the first service.
  const { state, reader, imm } = decap(collections);
  const unlisted: EntryReader = {
    ...reader,
    getEntry: async (s, c, slug) =>
      slug === "navigation" ? { data: { servicesMenu: menu.slice(1) } } : reader.getEntry(s, c, slug),
  };
  expect(await refusalToDelete(unlisted, state, imm(services), menu[0]!)).toBeUndefined();
});
