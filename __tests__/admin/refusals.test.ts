/**
 * @jest-environment node
 *
 * What the studio refuses to save, and its words: a required text of spaces only, an added page's
 * slug that is another page's address (in the content check's words), and a key or order another
 * entry has (the services of data/, as the studio reads them). Each row is a value typed into a field
 * and the message expected, or none.
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import {
  blankText,
  pageAddressTaken,
  takenValue,
  type OtherEntry,
  type Self,
  type UniqueField,
} from "../../admin/src/refusals";
import { cmsCollections } from "../../src/node/content/cms-config";
import { FIXED_PAGES, RESERVED_SEGMENTS } from "../../src/node/content/site-paths";
import { checkFileText } from "../../src/node/content/validate";

const folder = path.resolve(__dirname, "../../data/services");
const services: OtherEntry[] = fs
  .readdirSync(folder)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => ({
    slug: f.replace(/\.yaml$/, ""),
    data: parse(fs.readFileSync(path.join(folder, f), "utf8")) as Record<string, unknown>,
  }));
const [first, second] = services;
const name = (s: OtherEntry) => String(s.data.menuLabel);
const unusedOrder = Math.max(...services.map((s) => Number(s.data.order))) + 1;

const slug: UniqueField = { name: "slug", label: "Slug", labelField: "menuLabel", fileName: true, singular: "service" };
const order: UniqueField = {
  name: "order",
  label: "Order",
  labelField: "menuLabel",
  fileName: false,
  singular: "service",
};

test.each([
  ["spaces", "   ", true, "Menu label cannot be only spaces: write the text, or it is missing from the page."],
  ["a tab, a non-breaking space and a line break", "\t\u00a0\n", true, expect.stringContaining("only spaces")],
  ["words with spaces around them", "  Study Design ", true, undefined],
  ["nothing at all (Decap's own required check says so)", "", true, undefined],
  ["spaces in an optional field (left out of the file)", "   ", false, undefined],
  ["a number", 3, true, undefined],
])("a required text of %s", (_, value, required, expected) => {
  expect(blankText("Menu label", value, required)).toEqual(expected);
});

type Case = [string, UniqueField, () => unknown, () => Self, () => string | undefined];

test.each<Case>([
  [
    "another service's order",
    order,
    () => first!.data.order,
    () => ({ slug: second!.slug }),
    () => `Order ${String(first!.data.order)} is already used by ${name(first!)}; choose another number.`,
  ],
  ["its own order", order, () => first!.data.order, () => ({ slug: first!.slug }), () => undefined],
  ["an order no service has", order, () => unusedOrder, () => ({ slug: first!.slug }), () => undefined],
  [
    "a new service's order another has",
    order,
    () => second!.data.order,
    () => ({}),
    () => `Order ${String(second!.data.order)} is already used by ${name(second!)}; choose another number.`,
  ],
  [
    "a new service's slug that names a file (Decap wrote <slug>-1.yaml)",
    slug,
    () => first!.slug,
    () => ({}),
    () => `Slug "${first!.slug}" is already used by ${name(first!)}; choose another.`,
  ],
  ["a new service's slug no file has", slug, () => `${first!.slug}-new`, () => ({}), () => undefined],
  [
    "an existing service's slug changed (the studio cannot rename its file)",
    slug,
    () => second!.slug,
    () => ({ slug: first!.slug }),
    () =>
      `Slug must stay "${first!.slug}": it is the name of this service's file (${first!.slug}.yaml), which the studio cannot rename.`,
  ],
  ["an existing service's own slug", slug, () => first!.slug, () => ({ slug: first!.slug }), () => undefined],
])("%s", (_, field, value, self, expected) => {
  expect(takenValue(field, value(), self(), services)).toBe(expected());
});

test("a new service's slug that another service has in its file, under another file name, is taken too", () => {
  const copy = { slug: `${first!.slug}-copy`, data: { ...first!.data } };
  expect(takenValue(slug, first!.slug, {}, [copy])).toBe(
    `Slug "${first!.slug}" is already used by ${name(first!)}; choose another.`,
  );
});

test("the studio's form marks each collection's key, and the services' order, as its own (cms-config.ts)", () => {
  const collections = cmsCollections(path.resolve(__dirname, "../../data")).filter((c) => c.folder);
  expect(collections.map((c) => c.name)).toEqual(expect.arrayContaining(["services", "approvals"]));
  for (const collection of collections) {
    const unique = collection.fields!.filter((f) => f.unique).map((f) => [f.name, f.unique]);
    const label = collection.summary!.replace(/^\{\{fields\.(\w+)\}\}$/, "$1");
    const key = [collection.identifier_field, { label_field: label, file_name: true }];
    expect(unique).toEqual(
      collection.fields!.some((f) => f.name === "order") ? [key, ["order", { label_field: label }]] : [key],
    );
  }
});

/** What the content check says of data/pages/<slug>.yaml, a page with one section (none when it is fine). */
function checkSays(slug: string): string[] {
  const text = `slug: "${slug}"\ntitle: A page\ndescription: A page of the tests.\nsections:\n  - type: contact-strip\n`;
  return checkFileText(path.resolve(__dirname, "../../data"), `pages/${slug}.yaml`, text).map((p) => p.message);
}

/** A slug as the schema writes one (_gatsby is refused by the field's pattern first). */
const slugPattern = new RegExp(
  (
    JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../data/schemas/page.schema.json"), "utf8")) as {
      properties: { slug: { pattern: string } };
    }
  ).properties.slug.pattern,
);

test.each(
  [
    ...Object.keys(FIXED_PAGES).map((route) => [`a fixed page's, ${route}`, route.slice(1)]),
    ...Object.keys(RESERVED_SEGMENTS).map((segment) => [`one the site answers, /${segment}`, segment]),
    ["one starting /sitemap", "sitemap-pages"],
  ].filter(([, slug]) => slugPattern.test(slug!)),
)("an added page's slug that is %s: refused in the check's words", (_, slug) => {
  const [said] = checkSays(slug!);
  expect(said).toMatch(/\. Choose another slug, and name the file after it/);
  const words = said!.replace(/\. Choose another slug, .*$/, "");
  expect(pageAddressTaken(slug)).toBe(`${words.charAt(0).toUpperCase()}${words.slice(1)}. Choose another slug.`);
});

test.each([
  ["a new page's", "careers"],
  ["a service's (services are under /services/)", services[0]!.slug],
  ["not a text", 3],
])("an added page's slug that is %s: not refused, nor by the check", (_, slug) => {
  expect(pageAddressTaken(slug)).toBeUndefined();
  if (typeof slug === "string") expect(checkSays(slug)).toEqual([]);
});

test("only the added pages' key is a page's address (cms-config.ts)", () => {
  const marked = cmsCollections(path.resolve(__dirname, "../../data")).flatMap((c) =>
    [...(c.fields ?? []), ...(c.files ?? []).flatMap((f) => f.fields)]
      .filter((f) => f.page_address)
      .map((f) => [c.name, f.name]),
  );
  expect(marked).toEqual([["added-pages", "slug"]]);
});
