/**
 * @jest-environment node
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import { formatProblem, formatProblems } from "../../src/node/content/problems";
import { validateContent } from "../../src/node/content/validate";

const realData = path.resolve(__dirname, "../../data");

/** A copy of data/ to break on purpose; the real files are never touched. */
function copyOfData(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-content-"));
  fs.cpSync(realData, path.join(root, "data"), { recursive: true });
  return path.join(root, "data");
}

function edit(dataDir: string, file: string, change: (doc: ReturnType<typeof parseDocument>) => void): void {
  const abs = path.join(dataDir, file);
  const doc = parseDocument(fs.readFileSync(abs, "utf8"));
  change(doc);
  fs.writeFileSync(abs, String(doc));
}

function messages(dataDir: string): string[] {
  return validateContent(dataDir).map(formatProblem);
}

const servicesFile = "services/services.yaml";
let dataDir: string;

beforeEach(() => {
  dataDir = copyOfData();
});

afterEach(() => {
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

test("the content as committed has no problems", () => {
  expect(messages(realData)).toEqual([]);
});

test("a missing required field names the file, line, entry and field", () => {
  edit(dataDir, servicesFile, (doc) => doc.deleteIn([1, "cardTitle"]));
  const found = messages(dataDir);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatch(
    /^data\/services\/services\.yaml:\d+: entry 2 \(slug "study-design"\), field "cardTitle": is missing/,
  );
});

test("a misspelt field name is reported, not ignored", () => {
  edit(dataDir, servicesFile, (doc) => {
    const value = doc.getIn([4, "menuLabel"]);
    doc.deleteIn([4, "menuLabel"]);
    doc.setIn([4, "menuLable"], value);
  });
  const found = messages(dataDir);
  expect(found).toEqual(
    expect.arrayContaining([
      expect.stringMatching(
        /entry 5 \(slug "data-management"\), field "menuLable": is not a known field: check its spelling \(known fields here: .*menuLabel/,
      ),
      expect.stringMatching(/entry 5 \(slug "data-management"\), field "menuLabel": is missing/),
    ]),
  );
});

test("an unknown field in a nested list names its position", () => {
  edit(dataDir, "activities/activities.yaml", (doc) => doc.setIn(["sections", 2, "imgae"], "./images/section-3.jpg"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /^data\/activities\/activities\.yaml:\d+: field "sections\[3\]\.imgae": is not a known field/,
    ),
  ]);
});

test("a wrong image path names the file it looked for", () => {
  edit(dataDir, servicesFile, (doc) => doc.setIn([6, "banner"], "./images/quality-assurance-banner.jpeg"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /^data\/services\/services\.yaml:\d+: entry 7 \(slug "quality-assurance"\), field "banner": image file "\.\/images\/quality-assurance-banner\.jpeg" was not found \(looked for data\/services\/images\/quality-assurance-banner\.jpeg\)/,
    ),
  ]);
});

test("a duplicate slug is reported on the second entry", () => {
  edit(dataDir, servicesFile, (doc) => doc.setIn([2, "slug"], "study-design"));
  const found = messages(dataDir);
  expect(found).toEqual(
    expect.arrayContaining([
      expect.stringMatching(
        /entry 3 \(slug "study-design"\), field "slug": slug "study-design" is already used by entry 2/,
      ),
      // The dropdown still names the slug that no longer exists.
      expect.stringMatching(
        /^data\/navigation\/navigation\.yaml:\d+: field "servicesMenu\[3\]": names the service "project-management", which is not in data\/services\/services\.yaml/,
      ),
    ]),
  );
});

test("a dropdown entry naming a service that does not exist is reported", () => {
  edit(dataDir, "navigation/navigation.yaml", (doc) => doc.setIn(["servicesMenu", 11], "cdm"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /^data\/navigation\/navigation\.yaml:\d+: field "servicesMenu\[12\]": names the service "cdm", which is not in data\/services\/services\.yaml/,
    ),
    expect.stringMatching(/field "servicesMenu": does not list the service "cdms"/),
  ]);
});

test("a gallery naming an approval that does not exist is reported", () => {
  edit(dataDir, servicesFile, (doc) => doc.setIn([18, "gallery", 2], "fda"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(/entry 19 \(slug "regulatory-approvals"\), field "gallery\[3\]": names the approval "fda"/),
  ]);
});

test.each([
  ["home/home.yaml", ["slides"], 'field "slides": must have exactly 4 items \\(found 3\\)'],
  ["contact/contact.yaml", ["region", "slides"], 'field "region.slides": must have exactly 4 items \\(found 3\\)'],
  [servicesFile, [], "must have exactly 19 items \\(found 18\\)"],
])("a wrong count in %s is reported", (file, at, expected) => {
  edit(dataDir, file, (doc) => {
    const list = doc.getIn(at, true) as { items: unknown[] } | undefined;
    (list ?? (doc.contents as unknown as { items: unknown[] })).items.pop();
  });
  expect(messages(dataDir).join("\n")).toMatch(new RegExp(`data/${file.replace(/\./g, "\\.")}:\\d+: .*${expected}`));
});

test("a YAML syntax error names the file and line", () => {
  const file = path.join(dataDir, "why-cyrus/why-cyrus.yaml");
  fs.writeFileSync(file, `${fs.readFileSync(file, "utf8")}\ncards: [unclosed\n`);
  const found = messages(dataDir);
  expect(found.length).toBeGreaterThan(0);
  for (const message of found) expect(message).toMatch(/^data\/why-cyrus\/why-cyrus\.yaml:\d+: YAML syntax error: /);
});

test("all problems are listed together for the build to print", () => {
  edit(dataDir, servicesFile, (doc) => {
    doc.deleteIn([0, "title"]);
    doc.deleteIn([1, "title"]);
  });
  const text = formatProblems(validateContent(dataDir));
  expect(text).toMatch(/^The content in data\/ has 2 problems:/);
  expect(text).toContain('entry 1 (slug "clinical-operations"), field "title": is missing');
  expect(text).toContain('entry 2 (slug "study-design"), field "title": is missing');
});
