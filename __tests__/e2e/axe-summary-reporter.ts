/**
 * Prints, after the run, the axe-core result of every page and state checked: the number of
 * violations per route and viewport (tests record them as `axe` annotations).
 */
import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

interface AxeRecord {
  target: string;
  viewport: string;
  violations: number;
  rules: string[];
}

export default class AxeSummaryReporter implements Reporter {
  private records: AxeRecord[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    const seen = new Set<string>();
    for (const annotation of [...(result.annotations ?? []), ...test.annotations]) {
      if (annotation.type !== "axe" || !annotation.description || seen.has(annotation.description)) continue;
      seen.add(annotation.description);
      this.records.push(JSON.parse(annotation.description) as AxeRecord);
    }
  }

  onEnd(_result: FullResult) {
    if (this.records.length === 0) return;
    const viewports = [...new Set(this.records.map((r) => r.viewport))].sort((a, b) => widthOf(a) - widthOf(b));
    const targets = [...new Set(this.records.map((r) => r.target))];
    const cell = (target: string, viewport: string) => {
      const found = this.records.filter((r) => r.target === target && r.viewport === viewport);
      if (found.length === 0) return "-";
      const count = found.reduce((sum, r) => sum + r.violations, 0);
      const rules = [...new Set(found.flatMap((r) => r.rules))];
      return rules.length ? `${count} (${rules.join(", ")})` : String(count);
    };
    const rows = targets.map((t) => [t, ...viewports.map((v) => cell(t, v))]);
    const header = ["axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa): violations", ...viewports];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
    const total = this.records.reduce((sum, r) => sum + r.violations, 0);
    console.log(`\n${line(header)}\n${line(widths.map((w) => "-".repeat(w)))}`);
    for (const row of rows) console.log(line(row));
    console.log(
      `axe: ${this.records.length} checks on ${targets.length} pages and states, ${total} violations in all\n`,
    );
  }

  printsToStdio() {
    return true;
  }
}

function widthOf(project: string): number {
  return Number(project.match(/(\d+)$/)?.[1] ?? 0);
}
