/**
 * @jest-environment node
 *
 * The content check in `gatsby build` (plugins/gatsby-plugin-cyrus-content): a mistake in data/
 * stops the build in onPreInit, before Gatsby's own work, with the report headed as a content check
 * and nothing else (no stack trace), leaving public/ as it was. And the production build holds no
 * byte of the develop overlay. The first test needs `npm run build` (npm run test:site does it).
 */
import fs from "node:fs";
import path from "node:path";
import { formatProblems } from "../../src/node/content/problems";
import { readContent } from "../../src/node/content/read-content";
import { validateContent } from "../../src/node/content/validate";
import { OVERLAY_ID } from "../../plugins/gatsby-plugin-cyrus-content/src/overlay";
import { copyProject, editFile, plainText, runGatsby } from "../support/project-copy";
import { projectRoot } from "../support/serve";

/** Every file under `dir`. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));

test("the production build holds nothing of the develop overlay", () => {
  const publicDir = path.join(projectRoot, "public");
  if (!fs.existsSync(path.join(publicDir, "index.html"))) {
    throw new Error("public/ has not been built: run `npm run build` (or `npm run test:site`, which builds) first");
  }
  // Compressed copies hold what their originals hold.
  const files = filesUnder(publicDir).filter((file) => !/\.(gz|br)$/.test(file));
  expect(files.length).toBeGreaterThan(50);
  const holding = files.filter((file) => fs.readFileSync(file).includes(OVERLAY_ID));
  expect(holding).toEqual([]);
});

describe("a build with a mistake in data/", () => {
  let root: string;

  beforeAll(() => {
    root = copyProject("cyrus-site-");
  });

  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  test("stops in onPreInit, within seconds, with the report, and leaves public/ alone", async () => {
    const [service] = readContent(path.join(root, "data")).services;
    if (!service) throw new Error("data/services/ holds no service");
    editFile(root, `data/services/${service.slug}.yaml`, (text) => text.replace(/^title:/m, "titel:"));
    const problems = validateContent(path.join(root, "data"));
    expect(problems.map((p) => p.field)).toContain("titel");

    // A previous build's files: Gatsby removes old pages once it gets past onPreInit (no .cache here).
    const publicDir = path.join(root, "public");
    fs.mkdirSync(publicDir);
    const before = {
      "index.html": "<!doctype html><title>earlier build</title>",
      "marker.txt": "from an earlier build\n",
    };
    for (const [name, text] of Object.entries(before)) fs.writeFileSync(path.join(publicDir, name), text);

    const started = Date.now();
    const build = runGatsby(root, ["build"]);
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      build.exited,
      new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), 90_000))),
    ]);
    clearTimeout(timer);
    await build.stop();
    const seconds = (Date.now() - started) / 1000;
    const output = build.output();

    expect(code).toBe(1);
    // Compiling gatsby-*.ts takes most of it; then onPreInit stops the build.
    expect(seconds).toBeLessThan(45);
    expect(output).toContain(" ERROR #content-check");
    expect(plainText(output)).toContain(plainText(formatProblems(problems)));
    expect(output).not.toMatch(/Compiling Gatsby Functions|onPreBootstrap|source and transform nodes/);
    expect(output).not.toContain("    at ");
    expect(output).not.toContain("See our docs page");
    expect(fs.readdirSync(publicDir).sort()).toEqual(Object.keys(before).sort());
    for (const [name, text] of Object.entries(before))
      expect(fs.readFileSync(path.join(publicDir, name), "utf8")).toBe(text);
    console.info(`gatsby build with a mistake in data/ stopped after ${seconds.toFixed(1)} s`);
  }, 120_000);
});
