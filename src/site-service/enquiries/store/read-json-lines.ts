/** The lines of a JSON-lines file of earlier versions, in order; a torn line (a crash mid-write) is not fatal. */
import fs from "node:fs/promises";

/** value is undefined for a line that is not JSON. */
export type JsonLine = { line: string; value?: unknown };

export async function readJsonLines(file: string): Promise<JsonLine[]> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      try {
        return { line, value: JSON.parse(line) as unknown };
      } catch {
        return { line };
      }
    });
}
