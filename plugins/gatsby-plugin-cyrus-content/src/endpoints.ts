import type { ContentProblem } from "../../../src/node/content/problems";

/** Where the develop server serves the content check: the problems as JSON, and a stream of them. */
export const FEED_PATH = "/__content-check";
export const EVENTS_PATH = `${FEED_PATH}/events`;

/** A file whose nodes are not made from its current text, because of its problems. */
export interface HeldFile {
  /** Path from the project root: data/services/study-design.yaml */
  file: string;
  /** Its pages show its last good version; false: a new file, left out until it is fixed. */
  lastGood: boolean;
}

/**
 * What both endpoints send: every problem of data/ (none: the content is good), the files held back,
 * and the check's warnings (the site builds, but a text or picture is far from what its place needs).
 */
export interface FeedBody {
  problems: ContentProblem[];
  heldBack: HeldFile[];
  warnings: ContentProblem[];
}
