/**
 * The studio's YAML format (registered as "yaml-lines", studio.tsx): reads as Decap's own does, and
 * saves by splicing the edited data into the file's current text (splice.ts), so a save changes only
 * what changed. Decap hands a format's toFile the data alone; the file's text reaches it inside the
 * data, under SOURCE: put there when the file is read (so that Decap's own backup of unsaved changes,
 * which goes through toFile too, keeps the file's lines), and again by the preSave event from the
 * entry's `raw` (the text the backend read: decap-server's file, or the git host's blob alike). A new
 * file has none and is written whole.
 */
import { parseDocument } from "yaml";
import { spliceYaml } from "./splice";
import { writeYaml } from "./write";

export const FORMAT = "yaml-lines";

/** A key no schema field can have (the content check refuses unknown fields): the file's text. */
export const SOURCE = "\u0000source";

type Data = Record<string, unknown>;

export const yamlLines = {
  fromFile(content: string): Data {
    const doc = parseDocument(content);
    if (doc.errors.length > 0) throw new Error(`YAML parsing error:\n${doc.errors.map((e) => e.message).join("\n")}`);
    const data = (doc.toJS() as Data | null) ?? {};
    // No form field shows it (nor can a schema name it); every save and backup splices into it.
    return typeof data === "object" && !Array.isArray(data) ? { ...data, [SOURCE]: content } : data;
  },

  toFile(data: Data, sortedKeys: string[] = []): string {
    const { [SOURCE]: source, ...rest } = data;
    return typeof source === "string" && source.trim() !== ""
      ? spliceYaml(source, rest, sortedKeys)
      : writeYaml(rest, sortedKeys);
  },
};

/** The data preSave hands on: the edited data and, for an existing file, its current text. */
export function withSource(data: Data, raw: unknown, isNew: boolean): Data {
  return !isNew && typeof raw === "string" && raw !== "" ? { ...data, [SOURCE]: raw } : data;
}
