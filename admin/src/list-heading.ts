/**
 * A list's header in the studio's form, in words: "Intro: 2 paragraphs", "Gallery: no approvals",
 * "Services menu: 20 services". Decap wrote the count before the field's name ("2 intro", "0 gallery");
 * admin/scripts/decap-fixes.ts has its list widget call this, with the entries' words the
 * configuration gives the list (`count_words`, from the schema: src/node/content/cms-config.ts).
 */
export interface CountWords {
  one: string;
  other: string;
}

export function listHeading(label: string, count: number, words?: Partial<CountWords>, singular = label): string {
  const one = words?.one || singular.toLowerCase();
  const other = words?.other || label.toLowerCase();
  return `${label}: ${count === 0 ? `no ${other}` : `${count} ${count === 1 ? one : other}`}`;
}

/** The words of a list field of Decap's configuration (an Immutable Map there). */
export function countWordsOf(field: { get(key: string): unknown }): Partial<CountWords> | undefined {
  const words = field.get("count_words") as { toJS?: () => unknown } | undefined;
  return (words?.toJS?.() ?? words) as Partial<CountWords> | undefined;
}
