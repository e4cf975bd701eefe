/**
 * Prints (as JSON, last line) every route the content of a release folder defines, with that
 * release's own code: the content routes (siteRoutes) and the form's result pages.
 * Run by build.ts as `node --import tsx list-routes.ts <release folder>` in that folder.
 */
import fs from "node:fs";
import path from "node:path";

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? ".");
  const content = (await import(path.join(dir, "src/node/content/read-content.ts"))) as {
    readContent(dataDir: string): unknown;
    siteRoutes(content: unknown): string[];
  };
  const routes = content.siteRoutes(content.readContent(path.join(dir, "data")));
  const results = path.join(dir, "src/enquiry-contract/form-results.ts");
  if (fs.existsSync(results)) {
    const form = (await import(results)) as { FORM_OUTCOMES: readonly string[]; formResultPath(o: string): string };
    routes.push(...form.FORM_OUTCOMES.map((outcome) => form.formResultPath(outcome)));
  }
  console.log(JSON.stringify(routes));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
