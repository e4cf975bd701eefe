import type { ContentProblem } from "../../../src/node/content/problems";

/** A misspelt field, as the content check reports it: the problem the plugin's reports are shown with. */
export const typo: ContentProblem = {
  file: "data/services/a.yaml",
  line: 6,
  column: 1,
  field: "titel",
  message: "is not a known field: check its spelling",
};
