/**
 * New YAML text for values that have none yet: a new file, an added field, an added list entry. It is
 * written the way the content files are written by hand (two-space indents, a list indented under its
 * field, `- ` entries holding their first field on the dash's line), with the quoting of scalar.ts.
 */
import { isScalar, renderScalar } from "./scalar";

/**
 * How the neighbours of a new list entry quote their values (yaml's Scalar.type, QUOTE_DOUBLE or
 * QUOTE_SINGLE): a scalar entry's own, or each field's. A new line then reads like the lines around it.
 */
export interface EntryStyle {
  scalar?: string;
  fields?: Record<string, string>;
}

/** A field or list entry: `prefix` is `  key:` or `  -`; nested values are indented by `indent`. */
export function renderEntry(prefix: string, value: unknown, indent: number, style: EntryStyle = {}): string {
  if (isScalar(value)) return `${prefix} ${renderScalar(value, indent, style.scalar ? { type: style.scalar } : {})}\n`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${prefix} []\n`;
    const pad = " ".repeat(indent);
    return `${prefix}\n${value.map((item) => renderEntry(`${pad}-`, item, indent + 2)).join("")}`;
  }
  const fields = renderFields(value as Record<string, unknown>, indent, style.fields);
  if (fields === "") return `${prefix} {}\n`;
  // A list entry's first field shares the dash's line.
  if (prefix.endsWith("-")) return `${prefix} ${fields.slice(indent)}`;
  return `${prefix}\n${fields}`;
}

/** An object's fields, each at `indent` columns, in the object's order. */
export function renderFields(
  value: Record<string, unknown>,
  indent: number,
  quoting: Record<string, string> = {},
): string {
  const pad = " ".repeat(indent);
  return Object.entries(value)
    .map(([key, item]) =>
      renderEntry(
        `${pad}${renderKey(key)}:`,
        item,
        indent + 2,
        Object.hasOwn(quoting, key) ? { scalar: quoting[key] } : {},
      ),
    )
    .join("");
}

export const renderKey = (key: string) => renderScalar(key, 0, { type: "PLAIN" });

/** A whole file, its top-level fields in the form's order (`order`), the others after them. */
export function writeYaml(data: Record<string, unknown>, order: readonly string[] = []): string {
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const sorted = Object.fromEntries(Object.entries(data).sort(([a], [b]) => rank(a) - rank(b)));
  return renderFields(sorted, 0);
}
