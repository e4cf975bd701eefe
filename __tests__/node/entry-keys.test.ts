/**
 * @jest-environment node
 *
 * The check's advice about a service's slug, its file name and its order never destroys work: for
 * each way two services can come to clash (a copy Decap named <slug>-1.yaml, a slug typed twice, two
 * slugs swapped, the same order, …) every file concerned is reported, each naming the other, and no
 * advice proposes a file name that exists (renaming onto it would replace the other service) or a
 * slug another service has. One row per case, on a copy of data/ with the services read from it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import type { ContentProblem } from "../../src/node/content/problems";
import { validateContent } from "../../src/node/content/validate";
import { content } from "../support/content";

const [first, second, third] = content.services.map((s) => s.slug);
const file = (name: string) => `services/${name}.yaml`;

function setField(dataDir: string, rel: string, key: string, value: unknown): void {
  const abs = path.join(dataDir, rel);
  const doc = parseDocument(fs.readFileSync(abs, "utf8"));
  doc.set(key, value);
  fs.writeFileSync(abs, String(doc));
}

const copy = (dataDir: string, from: string, to: string) =>
  fs.copyFileSync(path.join(dataDir, from), path.join(dataDir, to));

const orderOf = (slug: string) => content.services.find((s) => s.slug === slug)!.order;

interface Row {
  /** Breaks the copy of data/; returns the pairs of files that clash (paths under data/). */
  arrange(dataDir: string): Array<[string, string]>;
}

const rows: Array<[string, Row]> = [
  [
    "a copy the studio named <slug>-1.yaml, slug and order unchanged",
    { arrange: (d) => (copy(d, file(first!), file(`${first}-1`)), [[file(first!), file(`${first}-1`)]]) },
  ],
  [
    "three files of one slug",
    {
      arrange: (d) => {
        copy(d, file(first!), file(`${first}-1`));
        copy(d, file(first!), file(`${first}-2`));
        return [
          [file(first!), file(`${first}-1`)],
          [file(first!), file(`${first}-2`)],
          [file(`${first}-1`), file(`${first}-2`)],
        ];
      },
    },
  ],
  [
    "a copy whose file name is another service's slug",
    {
      arrange: (d) => {
        copy(d, file(first!), file(`${first}-copy`));
        // second.yaml says slug <first>-copy: the copy's own name is taken as a slug.
        setField(d, file(second!), "slug", `${first}-copy`);
        return [[file(first!), file(`${first}-copy`)]];
      },
    },
  ],
  [
    "a slug changed to another service's",
    { arrange: (d) => (setField(d, file(second!), "slug", first), [[file(first!), file(second!)]]) },
  ],
  [
    "two slugs swapped",
    {
      arrange: (d) => {
        setField(d, file(first!), "slug", second);
        setField(d, file(second!), "slug", first);
        return [];
      },
    },
  ],
  [
    "a slug naming the file of a service whose slug changed",
    {
      arrange: (d) => {
        setField(d, file(third!), "slug", `${third}-renamed`);
        setField(d, file(second!), "slug", third);
        return [];
      },
    },
  ],
  [
    "a copy saved as .yml beside the .yaml",
    {
      arrange: (d) => (copy(d, file(first!), `services/${first}.yml`), [[file(first!), `services/${first}.yml`]]),
    },
  ],
  [
    "two services with the same order",
    { arrange: (d) => (setField(d, file(second!), "order", orderOf(first!)), [[file(first!), file(second!)]]) },
  ],
];

/** The file names an advice proposes renaming to: "Rename the file to x.yaml", never after "not". */
const proposedNames = (message: string) =>
  [...message.matchAll(/(?<!not )\b[Rr]ename (?:the file|this file|this one|it) to ([\w.-]+\.ya?ml)/g)].map(
    (m) => m[1]!,
  );

/** The slugs an advice proposes: set slug to "x". */
const proposedSlugs = (message: string) => [...message.matchAll(/set slug to "([^"]+)"/g)].map((m) => m[1]!);

let dataDir: string;
beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-entry-keys-"));
  fs.cpSync(path.resolve(__dirname, "../../data"), path.join(root, "data"), { recursive: true });
  dataDir = path.join(root, "data");
});
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

test.each(rows)("%s: each file is told of the other, and no advice names a file or slug that is taken", (_, row) => {
  const pairs = row.arrange(dataDir);
  const problems: ContentProblem[] = validateContent(dataDir).filter((p) => p.field === "slug" || p.field === "order");
  const on = (rel: string) => problems.filter((p) => p.file === `data/${rel}`);
  for (const [a, b] of pairs) {
    expect({ on: a, naming: on(a).some((p) => p.message.includes(`data/${b}`)) }).toEqual({ on: a, naming: true });
    expect({ on: b, naming: on(b).some((p) => p.message.includes(`data/${a}`)) }).toEqual({ on: b, naming: true });
  }
  const slugs = fs
    .readdirSync(path.join(dataDir, "services"))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => ({ f, slug: parseDocument(fs.readFileSync(path.join(dataDir, "services", f), "utf8")).get("slug") }));
  for (const problem of problems) {
    for (const name of proposedNames(problem.message))
      expect({
        problem: problem.file,
        renameTo: name,
        exists: fs.existsSync(path.join(dataDir, "services", name)),
      }).toEqual({ problem: problem.file, renameTo: name, exists: false });
    for (const slug of proposedSlugs(problem.message)) {
      const others = slugs.filter((s) => `data/services/${s.f}` !== problem.file && s.slug === slug);
      expect({ problem: problem.file, slug, takenBy: others.map((s) => s.f) }).toEqual({
        problem: problem.file,
        slug,
        takenBy: [],
      });
    }
  }
  // Something was reported: a clash is never silent.
  expect(problems.length).toBeGreaterThan(0);
});
