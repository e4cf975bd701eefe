/**
 * The studio's picture fields' benchmark (`npm run bench:studio-thumbnails`), for the figure in
 * docs/performance.md: how long an entry with ten picture fields takes to show every thumbnail.
 *
 * A service has two picture fields (banner and card), so the entry is the Activities page of a
 * temporary copy of data/: its banner and its sections' pictures, sections repeated until there are
 * ten picture fields, each section given a file of its own (a copy of another page's picture). The real
 * studio runs against decap-server on loopback (`npm run cms`'s setting, admin/scripts/cms.ts), in
 * the browser tests' Chromium; the entry is opened, then opened again `--runs` times, each time in a
 * fresh load of the studio. Each load is timed
 * in the page, from the start of the navigation, until the form has its ten picture fields, and until
 * every one shows its thumbnail (its <img> loaded: naturalWidth > 0), looked at every frame. Folded
 * sections are unfolded as an editor does to see them. Timings depend on the machine and its load
 * (the load average is printed): this is not a test.
 * Usage: npm run bench:studio-thumbnails -- [--runs 5] [--save-report]
 * --save-report also writes docs/benchmarks/bench-studio-thumbnails.md and .json: the command, the machine,
 * its load at the start and the end, and the table (./report.ts). --help prints this.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { parseDocument, YAMLSeq, type YAMLMap } from "yaml";
import { startStudio } from "../../admin/scripts/cms";
import { cmsCollections } from "../../src/node/content/cms-config";
import { freePort, projectRoot } from "../../__tests__/support/serve";
import { chromePath, chromiumArgs } from "../chromium";
import { markdownTable, startReport, writeReport } from "./report";

const FIELDS = 10;
const PAGE_FILE = "activities/activities.yaml";
const LIMIT_MS = Number(process.env.BENCH_LIMIT_MS ?? 120_000);

/** The copy's Activities page with a banner and FIELDS - 1 sections, each with a picture of its own. */
function tenPictures(dataDir: string): void {
  const file = path.join(dataDir, PAGE_FILE);
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  const sections = doc.get("sections") as YAMLSeq<YAMLMap>;
  const originals = [...sections.items];
  // Pictures wide enough for a section (the services' banners), copied beside the page's own.
  const spare = fs
    .readdirSync(path.join(dataDir, "services/images"))
    .filter((name) => name.endsWith("-banner.jpg"))
    .sort();
  for (let i = originals.length; i < FIELDS - 1; i += 1) {
    const section = originals[i % originals.length]!.clone() as YAMLMap;
    const name = `bench-section-${i + 1}.jpg`;
    fs.copyFileSync(path.join(dataDir, "services/images", spare[i]!), path.join(dataDir, "activities/images", name));
    section.set("image", `./images/${name}`);
    sections.items.push(section);
  }
  fs.writeFileSync(file, doc.toString());
}

/**
 * In the page, before the studio's own code: when the ten fields appeared, and when all their pictures
 * loaded. A string: tsx wraps a function's inner functions in a helper the page does not have.
 */
const WATCH_PICTURES = `(() => {
  const times = {};
  window.__pictures = times;
  const look = () => {
    const controls = [...document.querySelectorAll("[aria-label='image field']")];
    if (controls.length >= ${FIELDS}) times.formAt ??= performance.now();
    const loaded = controls.filter((c) => (c.querySelector("img")?.naturalWidth ?? 0) > 0).length;
    if (loaded >= ${FIELDS}) times.loadedAt = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();`;

/** Unfolds each folded section whose picture field is hidden, as an editor would to see it. */
async function unfold(page: Page): Promise<void> {
  const controls = page.locator("[aria-label='image field']");
  await controls.nth(FIELDS - 1).waitFor({ state: "attached", timeout: LIMIT_MS });
  for (let i = 0; i < FIELDS; i += 1) {
    const field = controls.nth(i);
    if (await field.isVisible()) continue;
    await field
      .locator("xpath=ancestor::*[./*[contains(@class, 'ListItemTopBar')]][1]/*[contains(@class, 'ListItemTopBar')]")
      .locator("button")
      .first()
      .click();
  }
}

/** What each picture field shows: to say which did not load when one never does. */
const fieldsNow = (page: Page) =>
  page.locator("[aria-label='image field']").evaluateAll((controls) =>
    controls.map((c) => {
      const img = c.querySelector("img");
      return { visible: (c as HTMLElement).offsetParent !== null, src: img?.src.slice(0, 80), width: img?.naturalWidth };
    }),
  );

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      "save-report": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(fs.readFileSync(__filename, "utf8").split("*/")[0]);
    return;
  }
  const report = startReport(
    "bench-studio-thumbnails",
    "Studio benchmark: an entry with ten picture fields",
    "bench:studio-thumbnails",
  );
  const runs = Number(values.runs);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-bench-thumbnails-"));
  fs.cpSync(path.join(projectRoot, "data"), path.join(dir, "data"), { recursive: true });
  tenPictures(path.join(dir, "data"));
  const entry = cmsCollections(path.join(dir, "data"))
    .flatMap((c) => (c.files ?? []).map((f) => ({ collection: c.name, ...f })))
    .find((f) => f.file.endsWith(PAGE_FILE))!;
  const studio = await startStudio({
    repo: dir,
    port: await freePort(),
    apiPort: await freePort(),
    out: path.join(dir, "studio"),
  });
  const browser = await chromium.launch({ executablePath: chromePath, args: [...chromiumArgs] });
  const load = () => os.loadavg()[0]!.toFixed(1);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(studio.url);
    const login = page.getByRole("button", { name: "Login" });
    await login.click({ timeout: LIMIT_MS });
    await page.getByRole("link", { name: "Pages" }).first().waitFor({ timeout: LIMIT_MS });
    await page.addInitScript(WATCH_PICTURES);
    const url = `${studio.url}#/collections/${entry.collection}/entries/${entry.name}`;
    const results: Array<{ form: number; thumbnails: number; load1: string }> = [];
    for (let run = 0; run <= runs; run += 1) {
      // A load of its own each time (a change of the address's # alone would not reload the studio).
      await page.goto("about:blank");
      await page.goto(url);
      await unfold(page);
      const times = await page
        .waitForFunction(
        () => {
          const t = (window as unknown as { __pictures?: { formAt?: number; loadedAt?: number } }).__pictures;
          return t?.loadedAt !== undefined ? t : undefined;
        },
        undefined,
        { timeout: LIMIT_MS },
      )
        .catch(async (error: unknown) => {
          throw new Error(`${String(error)}\nthe picture fields then: ${JSON.stringify(await fieldsNow(page))}`);
        });
      const { formAt, loadedAt } = (await times.jsonValue()) as { formAt: number; loadedAt: number };
      results.push({ form: formAt / 1000, thumbnails: (loadedAt - formAt) / 1000, load1: load() });
      console.log(
        `${run === 0 ? "first open" : `open ${run + 1}`}: the ${FIELDS} picture fields in the form after ${(formAt / 1000).toFixed(2)} s, ` +
          `every thumbnail ${((loadedAt - formAt) / 1000).toFixed(2)} s later (load ${load()})`,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(2);
    const reloads = results.slice(1);
    const medians = [
      `${FIELDS} thumbnails after the fields appear, median of ${reloads.length} opens after the first: ${median(reloads.map((r) => r.thumbnails))} s; ` +
        `from the start of the load to every thumbnail: ${median(reloads.map((r) => r.form + r.thumbnails))} s`,
    ];
    console.log(medians[0]);
    const table = {
      title: `Each open of the entry, in a fresh load of the studio`,
      columns: ["open", "the ten fields in the form (s)", "every thumbnail after that (s)", "from the load to every thumbnail (s)", "load (1 min)"],
      right: [1, 2, 3, 4],
      rows: results.map((r, i) => [
        i === 0 ? "first (decap-server reads the files)" : String(i + 1),
        r.form.toFixed(2),
        r.thumbnails.toFixed(2),
        (r.form + r.thumbnails).toFixed(2),
        r.load1,
      ]),
      notes: medians,
    };
    if (values["save-report"]) {
      console.log(markdownTable(table).join("\n"));
      const summary = [
        "The Activities page of a temporary copy of data/ with ten picture fields (1,200 to 2,400 px), opened in the " +
          "real studio against decap-server on loopback, in the browser tests' Chromium; timed in the page, every frame.",
      ];
      console.log(`report: ${writeReport(report.finish({ summary, tables: [table], data: results }))}`);
    }
  } finally {
    await browser.close();
    await studio.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
