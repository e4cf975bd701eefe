/** Where a command of `npm run enquiries` writes: its lines for the operator, and its errors (tests capture both). */
export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}
