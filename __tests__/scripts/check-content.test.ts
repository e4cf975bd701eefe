/**
 * @jest-environment node
 *
 * `npm run check:content`: the build's content check alone. The committed data passes; a copy with a
 * mistake fails with the plain report and exit code 1; an image smaller than its place, or far larger,
 * is a warning that names it, and the check still passes.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { content } from "../support/content";

const root = path.resolve(__dirname, "../..");
/** As package.json's check:content runs it (its bundle, made again when a file changed). */
function check(dataDir?: string) {
  const script = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts["check:content"];
  const [command, ...args] = String(script).split(" ");
  expect(command).toBe("node");
  const run = spawnSync(process.execPath, [...args, ...(dataDir ? [dataDir] : [])], { cwd: root, encoding: "utf8" });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

let dataDir: string;
beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-check-")), "data");
  fs.cpSync(path.join(root, "data"), dataDir, { recursive: true });
});
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

const service = content.services[0]!;
const serviceFile = () => path.join(dataDir, "services", `${service.slug}.yaml`);

test("the committed content passes", () => {
  const run = check();
  expect(run.err).toBe("");
  expect(run.out).toMatch(/^The content check found no problems in data\/ \(\d+ ms\)\.\n$/);
  expect(run.code).toBe(0);
});

test("a folder that is not a copy of data/ is named, with the usage, and exit code 2", () => {
  const run = check("--data");
  expect(run.code).toBe(2);
  expect(run.err).toBe(
    `${path.join(root, "--data")} is not a content folder (it has no schemas/ folder).\n` +
      "Use: npm run check:content            checks data/\n" +
      "     npm run check:content -- <folder>  checks another copy of data/\n",
  );
  expect(run.out).toBe("");
});

test("a mistake fails with the plain report, its place and exit code 1", () => {
  const text = fs.readFileSync(serviceFile(), "utf8");
  fs.writeFileSync(
    serviceFile(),
    text.replace(/^title: .*$/m, "titel: A new title").replace(/^order: .*$/m, "order: ten"),
  );
  const run = check(dataDir);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(/^The content check found 2 problems in data\/:\n/);
  expect(run.err).toMatch(
    new RegExp(
      `services/${service.slug}\\.yaml:\\d+:\\d+, field "order"\\n  must be a number\\n\\n.*services/${service.slug}\\.yaml:\\d+:\\d+, field "titel"\\n  is not a known field: did you mean "title"\\?`,
    ),
  );
  expect(run.err).toContain("Nothing can be built until these are corrected");
  expect(run.err).not.toMatch(/ {4}at |Error:/);
});

test("a banner smaller than its place is a warning naming the file and both widths; the check passes", async () => {
  const banner = path.resolve(path.dirname(serviceFile()), service.banner);
  await sharp({ create: { width: 1800, height: 600, channels: 3, background: "#336699" } })
    .jpeg()
    .toFile(`${banner}.tmp`);
  fs.renameSync(`${banner}.tmp`, banner);
  const run = check(dataDir);
  expect(run.code).toBe(0);
  expect(run.err).toMatch(/^The content check found 1 warning in data\/:\n/);
  expect(run.err).toMatch(
    new RegExp(
      `services/${service.slug}\\.yaml:\\d+:\\d+, field "banner"\\n  the image ${service.banner.replace(/\./g, "\\.")} is 1800 px wide, but this place needs at least 2400 px`,
    ),
  );
  expect(run.out).toMatch(
    /^The content check found no problems in .*data\/, and 1 warning \(listed above\): the site can be built \(\d+ ms\)\.\n$/,
  );
});

test("a 12 MB banner is a warning naming the file, its size and what to do; the check passes", async () => {
  const banner = path.resolve(path.dirname(serviceFile()), service.banner);
  const head = await sharp({ create: { width: 2400, height: 800, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();
  fs.writeFileSync(banner, Buffer.concat([head, Buffer.alloc(12_000_000 - head.length)]));
  const run = check(dataDir);
  expect(run.code).toBe(0);
  expect(run.err).toMatch(/^The content check found 1 warning in data\/:\n/);
  expect(run.err).toMatch(
    new RegExp(
      `services/${service.slug}\\.yaml:\\d+:\\d+, field "banner"\\n  the image ${service.banner.replace(/\./g, "\\.")} is 12\\.0 MB, far more than this place needs .* Save a copy 2400 px wide`,
    ),
  );
  expect(run.out).toMatch(
    /^The content check found no problems in .*data\/, and 1 warning \(listed above\): the site can be built \(\d+ ms\)\.\n$/,
  );
});
