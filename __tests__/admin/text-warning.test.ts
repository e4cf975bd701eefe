/**
 * @jest-environment node
 *
 * The studio's warning beside a text far longer than its place shows well is the content check's
 * own: the field the studio is generated with (cms-config.ts) and the widget's rule
 * (admin/src/limited-widgets.tsx) give, word for word, what `npm run check:content` says.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import { textWarning } from "../../admin/src/limited-widgets";
import { cmsCollections, type CmsField } from "../../src/node/content/cms-config";
import { inspectContent } from "../../src/node/content/validate";
import { content } from "../support/content";

const realData = path.resolve(__dirname, "../../data");
const service = content.services[0]!;
const fields = cmsCollections(realData).find((c) => c.name === "services")!.fields!;
/** The field as Decap gives it to the control: an Immutable map, read with get. */
const asDecap = (field: CmsField) => ({ get: (key: string) => (field as unknown as Record<string, unknown>)[key] });

let dataDir: string;
beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-text-")), "data");
  fs.cpSync(realData, dataDir, { recursive: true });
});
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

test.each([
  ["a paragraph of the introduction", ["intro", 0], (f: CmsField[]) => f.find((x) => x.name === "intro")!.field!, 2000],
  ["the banner's alt text", ["bannerAlt"], (f: CmsField[]) => f.find((x) => x.name === "bannerAlt")!, 300],
  ["the page heading", ["title"], (f: CmsField[]) => f.find((x) => x.name === "title")!, 250],
])("%s: the studio says what the check says", (_, at, fieldOf, length) => {
  const value = "x".repeat(length);
  const file = path.join(dataDir, "services", `${service.slug}.yaml`);
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  doc.setIn(at, value);
  fs.writeFileSync(file, String(doc));
  const field = fieldOf(fields);
  const checked = inspectContent(dataDir).warnings.map((w) => w.message);
  expect(checked).toHaveLength(1);
  expect(textWarning(asDecap(field), value)).toBe(`${field.label}: ${checked[0]}.`);
  expect(textWarning(asDecap(field), "x".repeat(20))).toBeUndefined();
});

test("a field with a hard limit (the meta title) gets its error, not this warning", () => {
  const metaTitle = fields.find((x) => x.name === "metaTitle")!;
  expect(metaTitle.max_length).toBe(60);
  expect(textWarning(asDecap(metaTitle), "x".repeat(5000))).toBeUndefined();
});
