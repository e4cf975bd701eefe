/**
 * Node's process warnings, through the caller's own log instead of plain text on stderr. The one
 * that node:sqlite is experimental (Node 22) is left out: the store checks at start what it relies
 * on (WAL, synchronous=FULL), and it would otherwise greet every start and every CLI command.
 */
export function routeProcessWarnings(report: (warning: Error) => void): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.name === "ExperimentalWarning" && /\bSQLite\b/.test(warning.message)) return;
    report(warning);
  });
}
