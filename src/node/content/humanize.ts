// Apart from cms-config.ts (which reads the schemas from disk), for the rules the studio bundles.

/** "menuLabel" -> "Menu label", "services-page" -> "Services page". */
export function humanize(name: string): string {
  const words = name
    .replace(/[-_]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
