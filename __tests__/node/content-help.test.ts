/**
 * @jest-environment node
 *
 * Issue 37: the check finds what the editor meant. An image path wrong only in capitals or by a slip
 * names the real file; a list naming a removed file gives both ways out (delete the line, where, also
 * in the studio; or put the file back); a picture or a text far larger than its place is a warning.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { parseDocument } from "yaml";
import { cmsCollections } from "../../src/node/content/cms-config";
import { formatProblem } from "../../src/node/content/problems";
import { similar } from "../../src/node/content/similar";
import { inspectContent } from "../../src/node/content/validate";
import { content } from "../support/content";

const realData = path.resolve(__dirname, "../../data");
let dataDir: string;
beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-help-")), "data");
  fs.cpSync(realData, dataDir, { recursive: true });
});
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

const service = content.services[0]!;
const serviceFile = (slug = service.slug) => `services/${slug}.yaml`;

function edit(file: string, change: (doc: ReturnType<typeof parseDocument>) => void): void {
  const abs = path.join(dataDir, file);
  const doc = parseDocument(fs.readFileSync(abs, "utf8"));
  change(doc);
  fs.writeFileSync(abs, String(doc));
}

/** data/<file>:line:column of `value`, on the first line of `file` that is `value` as a list entry or holds it. */
function placeOf(file: string, value: string): string {
  const lines = fs.readFileSync(path.join(dataDir, file), "utf8").split("\n");
  const entry = lines.findIndex((l) => l.trim() === `- ${value}`);
  const line = entry >= 0 ? entry : lines.findIndex((l) => l.includes(value));
  // A long text is written folded, after ">-" on the line before: the value starts there.
  if (lines[line - 1]?.endsWith(">-")) return `data/${file}:${line}:${lines[line - 1]!.indexOf(">-") + 1}`;
  return `data/${file}:${line + 1}:${lines[line]!.indexOf(value) + 1}`;
}

const lineOf = (place: string) => place.split(":")[1];

const report = () => {
  const { problems, warnings } = inspectContent(dataDir);
  return { problems: problems.map(formatProblem), warnings: warnings.map(formatProblem) };
};

describe("an image path that is not quite the file's name says which file it meant", () => {
  const [dir, name] = [path.posix.dirname(service.banner), path.posix.basename(service.banner)];

  test.each([
    [
      "in capitals",
      name.replace(/^(.)/, (c) => c.toUpperCase()).replace(/-(.)/g, (_, c: string) => `-${c.toUpperCase()}`),
      "the names differ only in capital letters, which count on the published site",
    ],
    ["a letter left out", name.replace(/(\w)(\.\w+)$/, "$2"), "if that is the picture you meant"],
  ])("%s", (_, typed, why) => {
    const value = `${dir}/${typed}`;
    edit(serviceFile(), (doc) => doc.set("banner", value));
    expect(report().problems).toEqual([
      `${placeOf(serviceFile(), value)}: field "banner": image file "${value}" was not found (looked for data/services/${path.posix.normalize(value)}): did you mean "${service.banner}"? Write ${service.banner} here (${why})`,
    ]);
  });
});

describe("a list naming a file that was removed gives both ways out", () => {
  const studio = cmsCollections(realData);
  const labelOf = (name: string) => studio.find((c) => c.name === name)!;

  test("a service removed, still in the Services dropdown", () => {
    const slugs = content.services.map((s) => s.slug);
    // One whose name is not a slip away from another's: that would be "did you mean".
    const gone = slugs.find(
      (slug) =>
        !similar(
          slug,
          slugs.filter((s) => s !== slug),
        ),
    )!;
    fs.rmSync(path.join(dataDir, serviceFile(gone)));
    const site = labelOf("site");
    const navigation = site.files!.find((f) => f.file === "data/navigation/navigation.yaml")!;
    const menu = navigation.fields.find((f) => f.name === "servicesMenu")!;
    const place = placeOf("navigation/navigation.yaml", gone);
    const line = lineOf(place);
    const index = content.navigation.servicesMenu.indexOf(gone) + 1;
    expect(report().problems).toEqual([
      `${place}: field "servicesMenu[${index}]": names the service "${gone}", but there is no data/services/${gone}.yaml (services: ${slugs
        .filter((s) => s !== gone)
        .sort()
        .join(
          ", ",
        )}). If the service was removed on purpose, delete this line (line ${line} of data/navigation/navigation.yaml; in the editing studio: ${site.label} → ${navigation.label} → ${menu.label}, the entry "${gone}"); if not, put data/services/${gone}.yaml back (git restore data/services/${gone}.yaml, while its removal is not committed)`,
    ]);
  });

  test("an approval removed, still in a service's gallery", () => {
    const owner = content.services.find((s) => s.gallery?.length)!;
    const keys = content.approvals.map((a) => a.key);
    const gone = owner.gallery!.find(
      (key) =>
        !similar(
          key,
          keys.filter((k) => k !== key),
        ),
    )!;
    fs.rmSync(path.join(dataDir, `approvals/${gone}.yaml`));
    const collection = labelOf("services");
    const gallery = collection.fields!.find((f) => f.name === "gallery")!;
    const message = report().problems.find((p) => p.includes(`"${gone}"`));
    const place = placeOf(serviceFile(owner.slug), gone);
    const line = lineOf(place);
    expect(message).toMatch(
      new RegExp(`^${place}: field "gallery\\[\\d+\\]": names the approval "${gone}", but there is no`),
    );
    expect(message).toContain(
      `If the approval was removed on purpose, delete this line (line ${line} of data/${serviceFile(owner.slug)}; in the editing studio: ${collection.label} → ${owner.menuLabel} → ${gallery.label}, the entry "${gone}"); if not, put data/approvals/${gone}.yaml back (git restore data/approvals/${gone}.yaml, while its removal is not committed)`,
    );
  });
});

describe("far larger than its place: a warning, and the check passes", () => {
  const banner = () => path.join(dataDir, "services", service.banner);
  const picture = (width: number) =>
    sharp({ create: { width, height: Math.round(width / 3), channels: 3, background: "#336699" } })
      .jpeg()
      .toBuffer();
  const advice =
    "the page looks no sharper for it, but the repository, the editing studio and the build carry the whole file. Save a copy 2400 px wide (a photograph as a JPEG of quality about 80: as a rule under 1 MB), and use that";

  test("a 12 MB banner", async () => {
    const head = await picture(2400);
    fs.writeFileSync(banner(), Buffer.concat([head, Buffer.alloc(12_000_000 - head.length)]));
    expect(report()).toEqual({
      problems: [],
      warnings: [
        `${placeOf(serviceFile(), service.banner)}: field "banner": the image ${service.banner} is 12.0 MB, far more than this place needs (a picture 2400 px wide; over 4800 px wide or over 5.0 MB is far too much): ${advice}`,
      ],
    });
  });

  test("a banner over twice the width its place needs", async () => {
    fs.writeFileSync(banner(), await picture(4801));
    expect(report().warnings).toEqual([
      `${placeOf(serviceFile(), service.banner)}: field "banner": the image ${service.banner} is 4801 px wide, far more than this place needs (a picture 2400 px wide; over 4800 px wide or over 5.0 MB is far too much): ${advice}`,
    ]);
  });

  const words = (n: number, first: string) => [first, ...Array.from({ length: n - 1 }, () => "word")].join(" ");
  test.each([
    [
      "a 5,000-word paragraph",
      ["intro", 0],
      words(5000, "LongIntro"),
      "intro[1]",
      "25,004 characters long (5,000 words), far more than a paragraph shows well (over 1,500 characters): split it into several shorter paragraphs, or shorten it",
    ],
    [
      "an alt text of 300 characters",
      ["bannerAlt"],
      `LongAlt${"x".repeat(293)}`,
      "bannerAlt",
      "300 characters long (1 word), far more than a picture's description shows well (over 250 characters): screen readers read it out in one go: say in a sentence or two what the picture shows",
    ],
    [
      "a heading of 201 characters",
      ["title"],
      `LongTitle${"x".repeat(192)}`,
      "title",
      "201 characters long (1 word), far more than this place shows well (over 200 characters): a heading, label or button this long runs over many lines or out of its place: shorten it",
    ],
  ])("%s", (_, at, value, field, said) => {
    edit(serviceFile(), (doc) => doc.setIn(at, value));
    expect(report()).toEqual({
      problems: [],
      warnings: [`${placeOf(serviceFile(), value.slice(0, 8))}: field "${field}": the text is ${said}`],
    });
  });
});
