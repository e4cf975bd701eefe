/**
 * Where the content report goes in the terminal. The plugin API's reporter prefixes a structured
 * error's id with the plugin's name (" ERROR #gatsby-plugin-cyrus-content_content-check"); Gatsby's
 * own reporter, the module every part of Gatsby logs through, prints the id as given, so an editor
 * reads " ERROR #content-check", then the report: no stack trace, no docs link.
 */
import { INTERNALS, PLUGIN, siteRequire } from "./internals";

/** The structured error id of a content report. */
export const ERROR_ID = "content-check";

export interface ErrorMeta {
  id: string;
  context: { message: string };
}

/** What the plugin uses of a Gatsby reporter (the singleton and the plugin API's alike). */
export interface ContentReporter {
  setErrorMap(map: Record<string, unknown>): void;
  error(meta: ErrorMeta): unknown;
  /** Prints the error and ends the process (status 1). */
  panic(meta: ErrorMeta | string): unknown;
  success(text: string): unknown;
  info(text: string): unknown;
  warn(text: string): unknown;
}

/** The entry that makes Gatsby print `context.message` as it is, under the id, as the user's error. */
export const errorMap = {
  [ERROR_ID]: {
    text: (context: { message: string }) => context.message,
    level: "ERROR",
    // No type: the heading stays " ERROR #content-check", without a category word after it.
    type: undefined,
    category: "USER",
  },
};

const isReporter = (value: unknown): value is ContentReporter => {
  const r = value as Partial<Record<keyof ContentReporter, unknown>> | null;
  return (
    typeof r?.setErrorMap === "function" &&
    typeof r.error === "function" &&
    typeof r.panic === "function" &&
    typeof r.success === "function" &&
    typeof r.info === "function" &&
    typeof r.warn === "function"
  );
};

/**
 * Gatsby's reporter singleton, `gatsby-cli/lib/reporter` as Gatsby itself resolves it (its
 * module.exports is the reporter). Undefined when it is not there or not a reporter.
 */
export function loadGatsbyReporter(root?: string): ContentReporter | undefined {
  try {
    const require = siteRequire(root);
    const gatsby = require.resolve("gatsby");
    const reporter: unknown = require(require.resolve("gatsby-cli/lib/reporter", { paths: [gatsby] }));
    return isReporter(reporter) ? reporter : undefined;
  } catch {
    return undefined;
  }
}

let chosen: ContentReporter | undefined;

/**
 * The reporter for content reports, its error map set: Gatsby's singleton, or else the plugin API's
 * reporter (`fallback`), with a warning that the heading carries the plugin's name.
 */
export function contentReporter(fallback: ContentReporter, load = loadGatsbyReporter): ContentReporter {
  if (chosen) return chosen;
  const singleton = load();
  chosen = singleton ?? fallback;
  chosen.setErrorMap(errorMap);
  if (!singleton) {
    fallback.warn(
      `${PLUGIN}: ${INTERNALS.reporter.name} was not found, so content problems are reported through the plugin's own reporter, headed "#${PLUGIN}_${ERROR_ID}". ${INTERNALS.reporter.fix}`,
    );
  }
  return chosen;
}

/** Forgets the chosen reporter (tests). */
export function resetContentReporter(): void {
  chosen = undefined;
}
