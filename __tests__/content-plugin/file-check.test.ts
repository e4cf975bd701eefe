/**
 * @jest-environment node
 *
 * The check `gatsby develop` decides a file's text with (`checkFileText` in src/node/content/validate.ts):
 * the problems of exactly the text the transformer would be given, not of the file as it is on disk by
 * then, and for every file the same problems as the check of all of data/ when the file holds that text.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import type { ContentProblem } from "../../src/node/content/problems";
import { checkFileText, validateContent } from "../../src/node/content/validate";
import { content } from "../support/content";

const realData = path.resolve(__dirname, "../../data");
let dataDir: string;

/** Every YAML file under data/ (but its schemas), relative to it. */
const yamlFiles = () =>
  fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((file) => !file.startsWith("schemas/"))
    .sort();
const read = (file: string) => fs.readFileSync(path.join(dataDir, file), "utf8");
const write = (file: string, text: string) => fs.writeFileSync(path.join(dataDir, file), text);
const change = (file: string, edit: (doc: ReturnType<typeof parseDocument>) => void) => {
  const doc = parseDocument(read(file));
  edit(doc);
  write(file, String(doc));
};
const ofFile = (problems: ContentProblem[], file: string) => problems.filter((p) => p.file === `data/${file}`);

/** For every file: the check of its text on disk is the whole check's problems of that file. */
function expectAgreement(): void {
  const all = validateContent(dataDir);
  for (const file of yamlFiles())
    expect([file, checkFileText(dataDir, file, read(file))]).toEqual([file, ofFile(all, file)]);
}

const [first, second] = content.services;
const withGallery = content.services.find((s) => s.gallery?.length);
const service = (slug: string) => `services/${slug}.yaml`;
const navigation = "navigation/navigation.yaml";

beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-file-check-"));
  fs.cpSync(realData, path.join(root, "data"), { recursive: true });
  dataDir = path.join(root, "data");
});

afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

test("the content as committed: no file has a problem", () => {
  for (const file of yamlFiles()) expect([file, checkFileText(dataDir, file, read(file))]).toEqual([file, []]);
});

test.each([
  ["a misspelt field", () => change(service(first!.slug), (doc) => doc.set("titel", doc.get("title")))],
  ["a YAML slip", () => write(service(first!.slug), read(service(first!.slug)).replace(/^menuLabel:/m, " menuLabel:"))],
  ["an image that is not there", () => change(service(first!.slug), (doc) => doc.set("banner", "images/none.jpg"))],
  ["a slug that is not the file name", () => change(service(first!.slug), (doc) => doc.set("slug", "other-name"))],
  ["a number where a text belongs", () => change(service(first!.slug), (doc) => doc.set("menuLabel", 42))],
  [
    "the dropdown naming a service with no file",
    () => change(navigation, (doc) => doc.set("servicesMenu", [...content.navigation.servicesMenu, "no-such-service"])),
  ],
  [
    // (A service the dropdown does not list is a warning of the whole check, no file's problem.)
    "a service the dropdown lists twice",
    () =>
      change(navigation, (doc) =>
        doc.set("servicesMenu", [...content.navigation.servicesMenu, content.navigation.servicesMenu[0]]),
      ),
  ],
  ["two services with one order", () => change(service(second!.slug), (doc) => doc.set("order", first!.order))],
  [
    "a gallery naming an approval with no file",
    () => change(service(withGallery!.slug), (doc) => doc.set("gallery", ["no-such-approval"])),
  ],
  [
    "a service that cannot be read, which the dropdown names",
    () => write(service(first!.slug), read(service(first!.slug)).replace(/^title:/m, "  title:")),
  ],
  ["a file the site does not read", () => write("services/extra/notes.yaml", "title: x\n")],
])("%s: each file's check agrees with the check of data/", (_what, breakIt) => {
  fs.mkdirSync(path.join(dataDir, "services/extra"), { recursive: true });
  breakIt();
  expect(validateContent(dataDir)).not.toEqual([]);
  expectAgreement();
});

test("the text given is checked, not the file on disk", () => {
  const file = service(first!.slug);
  const good = read(file);
  const broken = good.replace(/^menuLabel:/m, " menuLabel:");
  // On disk good, the text handed over broken (the editor saved again meanwhile): its problems.
  expect(checkFileText(dataDir, file, broken)).toEqual([
    expect.objectContaining({ file: `data/${file}`, message: expect.stringContaining("indented differently") }),
  ]);
  // And the other way round.
  write(file, broken);
  expect(checkFileText(dataDir, file, good)).toEqual([]);
});

test("references are checked against the other files on disk, also for a file not on disk yet", () => {
  const slug = "content-check-added";
  const menu = [slug, ...content.navigation.servicesMenu];
  const text = read(navigation).replace(/^(servicesMenu:\n)(\s*- )/m, `$1$2${slug}\n$2`);
  expect(parseDocument(text).toJS().servicesMenu).toEqual(menu);
  // The dropdown names a service whose file is not there: the navigation's own problem.
  expect(checkFileText(dataDir, navigation, text)).toEqual([
    expect.objectContaining({
      file: `data/${navigation}`,
      message: expect.stringContaining(`names the service "${slug}"`),
    }),
  ]);
  // The service's text, before its file is written: good (its place in the dropdown is the navigation's).
  const serviceText = read(service(first!.slug))
    .replace(/^slug:.*$/m, `slug: ${slug}`)
    .replace(/^order:.*$/m, `order: ${Math.max(...content.services.map((s) => s.order)) + 1}`);
  expect(checkFileText(dataDir, service(slug), serviceText)).toEqual([]);
  // Once it is there, the navigation's text has no problem left.
  write(service(slug), serviceText);
  expect(checkFileText(dataDir, navigation, text)).toEqual([]);
});
