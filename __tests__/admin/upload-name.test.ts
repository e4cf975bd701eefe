/**
 * @jest-environment node
 *
 * The name the studio saves an upload under (admin/src/upload-name.ts): its entry and field, an
 * ending from what the file really is, never a name already taken, and always one the content
 * check's image path patterns accept.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import {
  imageExtension,
  keptBothNote,
  nameWords,
  renamedUpload,
  sameUpload,
  uploadName,
  uploadPattern,
  withNames,
} from "../../admin/src/upload-name";
import { largeImageWarning, narrowImageWarning } from "../../src/node/content/image-width-rule";

const schemas = path.resolve(__dirname, "../../data/schemas");

/** Every image path pattern of the content schemas (those of x-image-path properties). */
function imagePatterns(): RegExp[] {
  const found = new Set<string>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (record["x-image-path"] === true && typeof record.pattern === "string") found.add(record.pattern);
    Object.values(record).forEach(visit);
  };
  for (const file of fs.readdirSync(schemas)) visit(JSON.parse(fs.readFileSync(path.join(schemas, file), "utf8")));
  return [...found].map((p) => new RegExp(p));
}

test("an upload is named by its field's pattern, as the files already there are", () => {
  expect(uploadName("{{slug}}-banner", "quality-assurance", "jpg", new Set())).toBe("quality-assurance-banner.jpg");
  expect(uploadName("{{slug}}-card", "quality-assurance", "png", new Set())).toBe("quality-assurance-card.png");
  expect(uploadName("{{slug}}", "us-fda", "png", new Set())).toBe("us-fda.png");
  expect(uploadName("logo", "site", "png", new Set())).toBe("logo.png");
  // In a list: the first free number.
  expect(uploadName("slide-{{n}}", "home", "jpg", new Set(["slide-1.jpg", "slide-2.jpg"]))).toBe("slide-3.jpg");
  // A new service's slug as typed, or the collection's name before it is typed, becomes file-name words.
  expect(uploadName("{{slug}}-banner", "Bio Statistik Ä", "jpg", new Set())).toBe("bio-statistik-a-banner.jpg");
  expect(nameWords("  Photo 1.JPG ")).toBe("photo-1-jpg");
  expect(uploadName("", "", "jpg", new Set())).toBe("image.jpg");
  expect(uploadName("{{slug}}", "", "jpg", new Set(["image.jpg"]))).toBe("image-2.jpg");
  // A field the configuration does not name: the entry, then the field.
  expect(uploadPattern(undefined, "cardImage")).toBe("{{slug}}-card-image");
  expect(uploadPattern("{{slug}}-card", "cardImage")).toBe("{{slug}}-card");
});

test("a name already taken is never given again: -2, -3, ...", () => {
  const taken = new Set(["quality-assurance-banner.jpg", "quality-assurance-banner-2.jpg"]);
  expect(uploadName("{{slug}}-banner", "quality-assurance", "jpg", taken)).toBe("quality-assurance-banner-3.jpg");
  // Another ending is another file.
  expect(uploadName("{{slug}}-banner", "quality-assurance", "png", taken)).toBe("quality-assurance-banner.png");
  for (const pattern of ["banner", "slide-{{n}}", "{{slug}}"]) {
    const many = new Set<string>();
    for (let i = 0; i < 12; i += 1) many.add(uploadName(pattern, "about", "jpg", many));
    expect(many.size).toBe(12);
  }
});

test("an upload made before the entry's key was typed is renamed after the key, never onto a name in use", () => {
  const early = { pattern: "{{slug}}-banner", entry: "Service", ending: "jpg" };
  expect(renamedUpload(early, "new-service", new Set())).toBe("new-service-banner.jpg");
  expect(renamedUpload(early, "new-service", new Set(["new-service-banner.jpg"]))).toBe("new-service-banner-2.jpg");
  // Already the entry's name, or a pattern without the key (a page's banner): left as it is.
  expect(renamedUpload({ ...early, entry: "new-service" }, "new-service", new Set())).toBeUndefined();
  expect(renamedUpload({ ...early, pattern: "banner" }, "about", new Set())).toBeUndefined();
  // The values naming it follow, and nothing else changes.
  const renames = new Map([["service-banner.jpg", "new-service-banner.jpg"]]);
  const data = { banner: "images/service-banner.jpg", bannerAlt: "service-banner.jpg", cardImage: "./images/x.jpg" };
  expect(withNames(data, renames)).toEqual({ ...data, banner: "images/new-service-banner.jpg" });
  expect(withNames({ list: [{ image: "./images/Service-Banner.jpg" }] }, renames)).toEqual({
    list: [{ image: "./images/new-service-banner.jpg" }],
  });
  const unchanged = { banner: "images/other.jpg" };
  expect(withNames(unchanged, renames)).toBe(unchanged);
});

test("every name it gives is one the content check's image paths accept", () => {
  const patterns = imagePatterns();
  expect(patterns.length).toBeGreaterThan(0);
  const taken = new Set(["slide-1.jpg"]);
  const names = [
    uploadName("slide-{{n}}", "home", "jpg", taken),
    uploadName("{{slug}}-card", "Études & Co.", "webp", new Set()),
    uploadName("banner", "services-page", "avif", new Set()),
  ];
  for (const name of names)
    for (const pattern of patterns) {
      expect(`./images/${name}`).toMatch(pattern);
      expect(`images/${name}`).toMatch(pattern);
    }
});

test("the ending comes from what the file is, in small letters, not from its name", async () => {
  const image = sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } });
  const head = async (format: "jpeg" | "png" | "webp" | "avif") =>
    new Uint8Array((await image.clone().toFormat(format).toBuffer()).subarray(0, 16));
  expect(imageExtension(await head("jpeg"), "PHOTO.PNG")).toBe("jpg");
  expect(imageExtension(await head("jpeg"), "photo.jpeg")).toBe("jpg");
  expect(imageExtension(await head("png"), "Banner.JPG")).toBe("png");
  expect(imageExtension(await head("webp"), "banner")).toBe("webp");
  expect(imageExtension(await head("avif"), "banner.jpg")).toBe("avif");
  // Not a picture the site takes: its own ending, in small letters (the check then names it).
  expect(imageExtension(new TextEncoder().encode("GIF89a..........."), "Anim.GIF")).toBe("gif");
});

test("the note says which name was taken, by whom, and what this one is called", () => {
  expect(keptBothNote("banner.jpg", ["Project Management"], "quality-assurance-banner-2.jpg")).toBe(
    "A picture named banner.jpg already exists (used by Project Management); this one was saved as quality-assurance-banner-2.jpg. Both are kept.",
  );
  expect(keptBothNote("x.jpg", [], "y.jpg")).toBe(
    "A picture named x.jpg already exists; this one was saved as y.jpg. Both are kept.",
  );
});

test("the width rule the studio shows is the content check's", () => {
  expect(narrowImageWarning("images/a.jpg", 2400, 2400)).toBeUndefined();
  expect(narrowImageWarning("images/a.jpg", 800, 2400)).toMatch(
    /is 800 px wide, but this place needs at least 2400 px/,
  );
});

test("the size rule the studio shows is the content check's: far larger than the place, in bytes or pixels", () => {
  expect(largeImageWarning("images/a.jpg", { bytes: 900_000, width: 4800 }, 2400)).toBeUndefined();
  expect(largeImageWarning("images/a.jpg", { bytes: 12_000_000, width: 2400 }, 2400)).toMatch(
    /^the image images\/a\.jpg is 12\.0 MB, far more than this place needs \(a picture 2400 px wide; over 4800 px wide or over 5\.0 MB is far too much\)/,
  );
  expect(largeImageWarning("images/a.jpg", { bytes: 900_000, width: 1921 }, 960)).toMatch(
    /^the image images\/a\.jpg is 1921 px wide, far more than this place needs \(a picture 960 px wide;/,
  );
});

test("the same picture uploaded again to an entry is the earlier upload, by its bytes, not its name", async () => {
  const picture = (colour: string) =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
      .jpeg()
      .toBuffer()
      .then((buffer) => new Uint8Array(buffer));
  const [card, slide] = [await picture("#2e4d7a"), await picture("#7a2e4d")];
  const earlier = [
    { name: "careers-slideshow-1.jpg", file: new Blob([slide]) },
    { name: "careers-card-1.jpg", file: new Blob([card]) },
  ];
  // The editor's own file, under whatever name: the same bytes as the card's.
  expect(await sameUpload(new File([card], "team.JPG"), earlier)).toBe("careers-card-1.jpg");
  // Another picture, even of the same size, or nothing uploaded yet: none.
  const other = card.slice();
  other[other.length - 3] = 0xff - other[other.length - 3]!;
  expect(await sameUpload(new Blob([other]), earlier)).toBeUndefined();
  expect(await sameUpload(new Blob([card]), [])).toBeUndefined();
});
