/**
 * The request's path as the service routes it, refused when it could mean another path to something
 * in front of the service or behind it: a `.` or `..` segment, which a proxy or a client may resolve
 * (nginx passes the raw URI on, so `/inbox/api/../../api/email` would reach the enquiry endpoint
 * through the inbox's location and its limits), and an encoded `/`, `\` or `.` (%2F, %5C, %2E, in
 * either case), which a later decoding turns into one; a raw `\`, which some software reads as `/`.
 * Decided on the raw path, before any routing, so no handler ever sees such a path.
 */

const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;
const ENCODED = /%(2f|5c|2e)/i;

/** What is wrong with the path (for the answer), or undefined when it may be routed. */
export function pathProblem(path: string): string | undefined {
  if (DOT_SEGMENT.test(path)) return "a . or .. segment";
  if (ENCODED.test(path)) return "an encoded /, \\ or . (%2F, %5C, %2E)";
  if (path.includes("\\")) return "a \\";
  return undefined;
}
