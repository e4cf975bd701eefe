import type { Scalar } from "yaml";
import type { YamlFile } from "./yaml-candidates";

/** What each detector of an odd character (odd-characters.ts, lookalike-syntax.ts) reads, and what it finds. */

export interface Line {
  file: YamlFile;
  line: number;
  text: string;
  keyAt: (index: number) => Scalar | undefined;
  /** Whether a character at this index of the line is this pass's to report. */
  wanted: (index: number) => boolean;
}

export interface Found {
  index: number;
  message: string;
}
