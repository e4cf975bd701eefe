/**
 * The name an uploaded picture is saved under. Every service's pictures share one folder
 * (data/services/images/), so the name an editor's file happens to have (banner.jpg, or another
 * service's project-management-banner.jpg) says nothing about whose it is: Decap would offer to
 * replace the file of that name, another page's picture. The studio names the file after its entry
 * and field instead (quality-assurance-banner.jpg, as the existing files are), and never takes a name
 * already in use: it adds -2, -3, ... (admin/src/unique-uploads.ts applies it).
 */

/** The endings the content check's image paths take, by the file's first bytes. */
const SIGNATURES: ReadonlyArray<[string, (b: Uint8Array) => boolean]> = [
  ["jpg", (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["png", (b) => ascii(b, 1, 4) === "PNG"],
  ["webp", (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP"],
  ["avif", (b) => ascii(b, 4, 8) === "ftyp" && /^avi[fs]$/.test(ascii(b, 8, 12))],
];

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * The file's ending, lower-case, from what it really is (its first bytes): a JPEG called photo.PNG or
 * photo.jpeg is saved as .jpg. Anything else keeps its own ending in small letters (the content check
 * then says that the site does not take it).
 */
export function imageExtension(head: Uint8Array, fileName: string): string {
  const known = SIGNATURES.find(([, matches]) => matches(head));
  if (known) return known[0];
  return /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? "jpg";
}

/** "Quality Assurance", "cardImage", "Photo 1.JPG" -> "quality-assurance", "card-image", "photo-1-jpg". */
export function nameWords(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * `<entry>-<field>.<ending>`, or with -2, -3, ... when that name is taken. `taken` holds the
 * folder's file names and the names its entries give, in small letters (decap compares file names so;
 * so do the file systems of macOS and Windows).
 */
export function uploadName(entry: string, field: string, ending: string, taken: ReadonlySet<string>): string {
  const stem = [nameWords(entry), nameWords(field)].filter(Boolean).join("-") || "image";
  for (let n = 1; ; n += 1) {
    const name = `${stem}${n === 1 ? "" : `-${n}`}.${ending}`;
    if (!taken.has(name)) return name;
  }
}

/** The note shown beside the field when the name the editor might expect was taken. */
export function keptBothNote(clash: string, usedBy: readonly string[], saved: string): string {
  const users = usedBy.length ? ` (used by ${usedBy.join(", ")})` : "";
  return `A picture named ${clash} already exists${users}; this one was saved as ${saved}. Both are kept.`;
}
