import path from "node:path";

/**
 * An image path the schema's pattern refuses ("./images/PM Banner.JPG"): the pattern's description
 * says what a path looks like, not what is wrong with this one. The refused characters and ending
 * are named, and a name the pattern accepts is proposed. The schemas' image patterns all read
 * `^(\./)?[<allowed characters>]+\.(<endings>)$`; another pattern gets no advice from here.
 */
const IMAGE_PATTERN = /\[([^\]]+)\]\+\\\.\(((?:[a-z0-9]+\|)*[a-z0-9]+)\)\$$/;

const describe = (char: string): string => {
  if (char === " ") return "a space";
  if (/\s/u.test(char))
    return `a special space (U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`;
  return `"${char}"`;
};

const listed = (items: readonly string[]): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/**
 * What is wrong with `value` under the image path `pattern`, and how to rename the file; undefined
 * when the pattern is not an image path's. `shownDir`: the folder the path is relative to, as the
 * editor sees it (data/services). `exists` tells whether a path relative to that folder names a file
 * (spelt exactly so): advice to rename a picture is given only for one that is there, and a name the
 * site accepts that is already there is proposed as it is. Without it (the studio, which has no disk)
 * the advice assumes the picture named is there.
 */
export function imagePathAdvice(
  value: string,
  pattern: string,
  shownDir: string,
  exists?: (relPath: string) => boolean,
): string | undefined {
  const rule = IMAGE_PATTERN.exec(pattern);
  if (!rule) return undefined;
  const allowed = new RegExp(`[${rule[1]}]`);
  const endings = rule[2]!.split("|");
  const dir = /^(.*\/)?/.exec(value)![0];
  const name = value.slice(dir.length);
  const ending = /\.([^.]*)$/.exec(name)?.[1] ?? "";
  const reasons: string[] = [];
  const refused = [...new Set([...value].filter((char) => !allowed.test(char)))];
  if (refused.length > 0) reasons.push(`it has ${listed(refused.map(describe))}`);
  if (endings.includes(ending.toLowerCase()) && !endings.includes(ending)) {
    reasons.push(`its ending .${ending} is in capitals`);
  } else if (!endings.includes(ending)) {
    reasons.push(ending ? `its ending .${ending} is not one the site takes` : "it has no ending such as .jpg");
  }
  const base = name
    .slice(0, ending ? -(ending.length + 1) : undefined)
    .toLowerCase()
    .replace(new RegExp(`[^${rule[1]}]+`, "g"), "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-|-$/g, "");
  const wantedEnding = endings.includes(ending.toLowerCase()) ? ending.toLowerCase() : endings[0]!;
  const fixedName = `${base || "image"}.${wantedEnding}`;
  const fixed = `${dir.replace(new RegExp(`[^${rule[1]}]`, "g"), "-")}${fixedName}`;
  const file = path.posix.join(shownDir, value);
  const what =
    `${JSON.stringify(value)} is not a file name the site accepts: ${listed(reasons)}. Image file names use only ` +
    `letters, digits, dots, hyphens and underscores, and end in ${listed(endings.map((e) => `.${e}`)).replace(/ and (?=[^,]*$)/, " or ")} in small letters: `;
  if (!exists || exists(value)) return `${what}rename the picture ${file} to ${fixedName}, and write ${fixed} here`;
  // Advice to rename a file that is not there would send the editor looking for it.
  if (exists(fixed)) return `${what}${path.posix.join(shownDir, fixed)} is there: write ${fixed} here`;
  return (
    `${what}there is no picture ${file} either: put the picture in ${path.posix.join(shownDir, dir, "/")} ` +
    `as ${fixedName}, and write ${fixed} here`
  );
}
