/**
 * The name an uploaded picture is saved under. Every service's pictures share one folder
 * (data/services/images/), so the name an editor's file happens to have (banner.jpg, or another
 * service's project-management-banner.jpg) says nothing about whose it is: Decap would offer to
 * replace the file of that name, another page's picture. The studio names the file as the existing
 * files are (quality-assurance-banner.jpg, quality-assurance-card.jpg, slide-5.jpg: its field's
 * pattern), and never takes a name already in use: it adds -2, -3, ... (admin/src/unique-uploads.ts
 * applies it; upload-rename.ts renames an upload made before the entry's key was typed).
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
 * The name for an upload from its field's pattern (`upload_name`, src/node/content/cms-config.ts:
 * "{{slug}}-banner", "slide-{{n}}", "logo"): `{{slug}}` is the entry's key in file-name words, `{{n}}`
 * the first free number from 1; a pattern without a number gets -2, -3, ... when its name is taken.
 * `taken` holds the folder's file names and the names its entries give, in small letters (decap
 * compares file names so; so do the file systems of macOS and Windows).
 */
export function uploadName(pattern: string, entry: string, ending: string, taken: ReadonlySet<string>): string {
  const numbered = pattern.includes("{{n}}");
  const [before = "", after = ""] = pattern.replaceAll("{{slug}}", `-${nameWords(entry)}-`).split("{{n}}");
  const tail = nameWords(after);
  const head = nameWords(before) || (tail ? "" : "image");
  for (let n = 1; ; n += 1) {
    const name = `${[head, numbered || n > 1 ? String(n) : "", tail].filter(Boolean).join("-")}.${ending}`;
    if (!taken.has(name)) return name;
  }
}

/**
 * A field's pattern: its own (`upload_name`), else the entry and the field's name (a field the config does not name).
 */
export const uploadPattern = (uploadNameOf: unknown, field: string): string =>
  typeof uploadNameOf === "string" && uploadNameOf ? uploadNameOf : `{{slug}}-${nameWords(field)}`;

/**
 * The name an upload made before its entry had a key (a new service's banner, named after "Service")
 * takes once the key is typed, or undefined when its name already follows the entry's.
 */
export function renamedUpload(
  upload: { pattern: string; entry: string; ending: string },
  entry: string,
  taken: ReadonlySet<string>,
): string | undefined {
  if (!upload.pattern.includes("{{slug}}") || nameWords(upload.entry) === nameWords(entry)) return undefined;
  return uploadName(upload.pattern, entry, upload.ending, taken);
}

/** The value with every path naming a renamed file (images/service-banner.jpg) naming its new name. */
export function withNames(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") {
    const [, folder, name] = /^((?:\.\/)?images\/)([^/]+)$/.exec(value) ?? [];
    const to = name && renames.get(name.toLowerCase());
    return to ? folder + to : value;
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => withNames(item, renames));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => [k, withNames(v, renames)] as const);
    return entries.some(([k, v]) => v !== (value as Record<string, unknown>)[k]) ? Object.fromEntries(entries) : value;
  }
  return value;
}

/**
 * The earlier upload of this entry, not yet saved, that is the very same file (the same picture chosen
 * for two cards): its name. Decap keeps an entry's unsaved uploads by their content's hash, so a second
 * copy under a name of its own would push the first out, and the entry would name a file never written.
 */
export async function sameUpload(
  file: Blob,
  earlier: ReadonlyArray<{ name: string; file: Blob }>,
): Promise<string | undefined> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  for (const other of earlier) {
    if (other.file.size !== file.size) continue;
    const theirs = new Uint8Array(await other.file.arrayBuffer());
    if (theirs.every((byte, i) => byte === bytes[i])) return other.name;
  }
  return undefined;
}

/** The note shown beside the field when the name the editor might expect was taken. */
export function keptBothNote(clash: string, usedBy: readonly string[], saved: string): string {
  const users = usedBy.length ? ` (used by ${usedBy.join(", ")})` : "";
  return `A picture named ${clash} already exists${users}; this one was saved as ${saved}. Both are kept.`;
}
