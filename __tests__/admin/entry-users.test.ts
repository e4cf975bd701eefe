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
import { deleteRefusal, missingEntry } from "../../admin/src/entry-users";
import { cmsCollections, type CmsCollection } from "../../src/node/content/cms-config";
import { contentFiles, filesOf } from "../../src/node/content/content-files";
import { referenceIndex, referencesTo } from "../../src/node/content/reference-index";
import { contentSourcesOf } from "../../admin/scripts/build";

const dataDir = path.resolve(__dirname, "../../data");
const collections = cmsCollections(dataDir);
const read = (file: string) =>
  parse(fs.readFileSync(path.join(dataDir, "..", file), "utf8")) as Record<string, unknown>;
const site = collections.find((c) => c.files?.some((f) => f.name === "navigation"))!;
const navigation = site.files!.find((f) => f.name === "navigation")!;
const menu = read(navigation.file).servicesMenu as string[];
const services = collections.find((c) => c.name === "services")!;
const serviceFile = (slug: string) => `${services.folder}/${slug}.yaml`;
const sources = contentSourcesOf(dataDir);

test("the words: each place that lists or links to the entry, with its file, and the way out", () => {
  const usages = [
    { place: "Site and menu → Navigation → Services menu", file: "data/navigation/navigation.yaml" },
    {
      place: "Added pages → Training → Sections → item 1 (Text) → Body",
      file: "data/pages/training.yaml",
      links: true,
    },
  ];
  expect(deleteRefusal("service", usages)).toBe(
    "Site and menu → Navigation → Services menu lists this service (data/navigation/navigation.yaml); " +
      "Added pages → Training → Sections → item 1 (Text) → Body links to this service (data/pages/training.yaml): " +
      "remove it there first, then delete it.",
  );
  expect(deleteRefusal("service", [])).toBeUndefined();
  expect(missingEntry("service", "gone", "data/services/gone.yaml")).toBe(
    '"gone" is not a service any more: there is no data/services/gone.yaml. Remove this entry (×), or choose another service.',
  );
});

/** Decap's state and backend as the guard reads them, over the files of data/ and `added` (data/… -> data). */
function decap(all: readonly CmsCollection[], added: Record<string, Record<string, unknown>> = {}) {
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
      return { data: added[file] ?? read(file) };
    },
    listAllEntries: async (collection) => {
      const c = (collection as ReturnType<typeof imm>).toJS();
      reads.push(`${c.folder}/`);
      const extra = Object.keys(added).filter((f) => path.posix.dirname(f) === c.folder);
      return [
        ...fs
          .readdirSync(path.join(dataDir, "..", c.folder!))
          .filter((f) => f.endsWith(".yaml") && !extra.includes(`${c.folder}/${f}`))
          .map((f) => ({ slug: f.replace(/\.yaml$/, ""), data: read(`${c.folder}/${f}`) })),
        ...extra.map((f) => ({ slug: path.posix.basename(f, ".yaml"), data: added[f] })),
      ];
    },
  };
  return { state, reader, reads, imm };
}

test("deleting: a listed service and an approval of a gallery are refused, naming who lists them", async () => {
  const { state, reader, reads, imm } = decap(collections);
  expect(await refusalToDelete(reader, state, imm(services), menu[0]!, sources)).toBe(
    `Site and menu → Navigation → Services menu lists this service (${navigation.file}): remove it there first, then delete it.`,
  );
  // Only the files whose schema has a place referring to others are read: not the approvals, nor Home.
  expect(reads).not.toContain("data/approvals/");
  expect(reads).not.toContain("data/home/home.yaml");
  expect(reads).toEqual(expect.arrayContaining([navigation.file, "data/services/", "data/pages/"]));

  const approvals = collections.find((c) => c.name === "approvals")!;
  const withGallery = fs
    .readdirSync(path.join(dataDir, "services"))
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => ({ slug: f.replace(/\.yaml$/, ""), data: read(`data/services/${f}`) }))
    .find((s) => Array.isArray(s.data.gallery))!;
  const key = (withGallery.data.gallery as string[])[0]!;
  expect(await refusalToDelete(reader, state, imm(approvals), key, sources)).toBe(
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
  expect(await refusalToDelete(unlisted, state, imm(services), menu[0]!, sources)).toBeUndefined();
});

/** Every content file of data/ as the index reads it. */
const dataFiles = () =>
  contentFiles.flatMap((source) =>
    filesOf(dataDir, source).map((f) => ({ rel: `data/${f}`, source, data: read(`data/${f}`) })),
  );
const schemaOf = (s: { file: string }) => sources.find((b) => b.file === s.file)?.json;

test("the reference index over data/: the menu's links and Services menu, the galleries, the added page's links", () => {
  const index = referenceIndex(dataFiles(), schemaOf);
  const at = (file: string) =>
    index.filter((r) => r.file === file).map((r) => [r.at.join("."), r.kind === "address" ? r.address : r.value]);
  const nav = read("data/navigation/navigation.yaml");
  expect(at(navigation.file)).toEqual([
    ...(nav.main as Array<{ to: string }>).map((m, i) => [`main.${i}.to`, m.to]),
    ...menu.map((slug, i) => [`servicesMenu.${i}`, slug]),
  ]);
  expect(at("data/services/regulatory-approvals.yaml")).toEqual(
    (read("data/services/regulatory-approvals.yaml").gallery as string[]).map((key, i) => [`gallery.${i}`, key]),
  );
  // A text's links, a card's: the example page links to Contact, Services and About us.
  expect(at("data/pages/example.yaml")).toEqual([
    ["sections.0.body", "/contact"],
    ["sections.0.body", "/services"],
    ["sections.2.cards.0.link", "/services"],
    ["sections.4.items.1.answer", "/aboutus"],
  ]);
  // Who refers to what: a service by its slug and its address, an approval by its key, a page by its address.
  const service = { file: "services/*.yaml" };
  expect(referencesTo(index, service, read(serviceFile(menu[0]!))).map((r) => r.file)).toEqual([navigation.file]);
  expect(referencesTo(index, { file: "approvals/*.yaml" }, { key: "ema" }).map((r) => r.at.join("."))).toEqual([
    "gallery.1",
  ]);
  expect(referencesTo(index, { file: "pages/*.yaml" }, { slug: "careers" })).toEqual([]);
});

/** An added page at /careers, the menu linking to it, and a page whose text and button link to a service. */
function withReferences() {
  const nav = read(navigation.file);
  const main = [...(nav.main as object[]), { label: "Careers", to: "/careers" }];
  const service = read(serviceFile(menu[0]!));
  return {
    [navigation.file]: { ...nav, main },
    "data/pages/careers.yaml": { slug: "careers", title: "Careers", sections: [{ type: "text", body: "Join us." }] },
    "data/pages/work-with-us.yaml": {
      slug: "work-with-us",
      title: "Work with us",
      sections: [
        { type: "text", body: `We train people.\n\nSee [our service](/services/${String(service.slug)}#top).` },
        { type: "call-to-action", heading: "Ask", buttonLabel: "Ask", buttonTo: `/services/${String(service.slug)}/` },
      ],
    },
  };
}

test("deleting: a page the menu links to is refused, naming the menu's link as the studio shows it", async () => {
  const pages = collections.find((c) => c.folder === "data/pages")!;
  const { state, reader, imm } = decap(collections, withReferences());
  expect(await refusalToDelete(reader, state, imm(pages), "careers", sources)).toBe(
    `${site.label} → ${navigation.label} → Main → item ${(read(navigation.file).main as object[]).length + 1} "Careers" → To links to this ${String(pages.label_singular).toLowerCase()} (${navigation.file}): remove it there first, then delete it.`,
  );
  // The page with nothing linking to it goes.
  expect(await refusalToDelete(reader, state, imm(pages), "work-with-us", sources)).toBeUndefined();
});

test("deleting: a service a text and a button link to is refused, naming each, with the Services menu", async () => {
  const { state, reader, imm } = decap(collections, withReferences());
  const refusal = await refusalToDelete(reader, state, imm(services), menu[0]!, sources);
  const pages = collections.find((c) => c.folder === "data/pages")!;
  expect(refusal).toContain(
    `${site.label} → ${navigation.label} → Services menu lists this service (${navigation.file})`,
  );
  expect(refusal).toMatch(
    new RegExp(
      `${pages.label} → Work with us → Sections → item 1 \\([^)]+\\) "We train people\\." → [^;]+ links to this service \\(data/pages/work-with-us\\.yaml\\)`,
    ),
  );
  expect(refusal).toMatch(/item 2 \([^)]+\) "Ask" → [^;]+ links to this service \(data\/pages\/work-with-us\.yaml\)/);
  expect(refusal).toMatch(/: remove it there first, then delete it\.$/);
});
