/**
 * @jest-environment node
 *
 * docs/content-fields.md, the editors' reference of every field, is what tools/docs/content-fields.ts
 * renders from data/schemas/ as they are: a field added, renamed or described anew in a schema fails
 * here until the page is written again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONTENT_FIELDS_PAGE, renderContentFields } from "../../tools/docs/content-fields";
import { projectRoot } from "./support/markdown";

const schemas = path.join(projectRoot, "data/schemas");

test(`${CONTENT_FIELDS_PAGE} is the page the schemas give (else: npx tsx tools/docs/content-fields.ts)`, () => {
  const committed = fs.readFileSync(path.join(projectRoot, CONTENT_FIELDS_PAGE), "utf8");
  expect(committed).toBe(renderContentFields(schemas));
});

test("every field of every schema has its row, a list's entries' fields included", () => {
  const page = renderContentFields(schemas);
  expect(page).toContain("| `slug` | yes | text | Page address: /services/&lt;slug&gt;.");
  expect(page).toContain("| `address.city` | yes | text |");
  expect(page).toContain("| `cards[].imageAlt` | with `image` | text |");
  expect(page).toContain("### Cards: an entry of `sections` with `type: cards`");
  expect(page).toContain("a picture's path (`./images/…`), at least 2400 px wide");
});

test("a field added to a schema is a row of the page, with its description", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-content-fields-"));
  try {
    fs.cpSync(schemas, dir, { recursive: true });
    const file = path.join(dir, "about.schema.json");
    const about = JSON.parse(fs.readFileSync(file, "utf8")) as { properties: Record<string, unknown> };
    about.properties.subtitle = { type: "string", maxLength: 80, description: "Line under the heading | short" };
    fs.writeFileSync(file, JSON.stringify(about));
    expect(renderContentFields(dir)).toContain(
      "| `subtitle` | no | text, at most 80 characters | Line under the heading \\| short |",
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
