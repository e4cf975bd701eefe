/**
 * @jest-environment node
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import { formatProblem, formatProblems } from "../../src/node/content/problems";
import { inspectContent, validateContent } from "../../src/node/content/validate";
import { content } from "../support/content";

const realData = path.resolve(__dirname, "../../data");

/** A copy of data/ to break on purpose; the real files are never touched. */
function copyOfData(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-content-"));
  fs.cpSync(realData, path.join(root, "data"), { recursive: true });
  return path.join(root, "data");
}

function edit(dataDir: string, file: string, change: (doc: ReturnType<typeof parseDocument>) => void): void {
  const abs = path.join(dataDir, file);
  const doc = parseDocument(fs.readFileSync(abs, "utf8"));
  change(doc);
  fs.writeFileSync(abs, String(doc));
}

function messages(dataDir: string): string[] {
  return validateContent(dataDir).map(formatProblem);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Services picked from the data, so the tests follow an editor's changes.
const [first, second] = content.services;
const withGallery = content.services.find((s) => s.gallery?.length);
const serviceFile = (slug: string) => `services/${slug}.yaml`;
let dataDir: string;

beforeEach(() => {
  dataDir = copyOfData();
});

afterEach(() => {
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

test("the content as committed has no problems", () => {
  expect(messages(realData)).toEqual([]);
});

test("a missing required field names the file, line, column and field", () => {
  edit(dataDir, serviceFile(second!.slug), (doc) => doc.delete("cardTitle"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^data/services/${escape(second!.slug)}\\.yaml:\\d+:\\d+: field "cardTitle": is missing \\(it is required\\)$`,
      ),
    ),
  ]);
});

test("a misspelt field name is reported once, with the field it was meant to be", () => {
  edit(dataDir, serviceFile(first!.slug), (doc) => {
    const value = doc.get("menuLabel");
    doc.delete("menuLabel");
    doc.set("menuLable", value);
  });
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /field "menuLable": is not a known field: did you mean "menuLabel"\? Rename it to menuLabel \(a required field\)$/,
    ),
  ]);
});

test("an unknown field unlike any known one lists the known fields", () => {
  edit(dataDir, serviceFile(first!.slug), (doc) => doc.set("colour", "blue"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /field "colour": is not a known field: check its spelling \(known fields here: slug, order, /,
    ),
  ]);
});

test("an unknown field in a nested list names its position", () => {
  edit(dataDir, "activities/activities.yaml", (doc) => doc.setIn(["sections", 0, "imgae"], "./images/section-1.jpg"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /^data\/activities\/activities\.yaml:\d+:\d+: field "sections\[1\]\.imgae": is not a known field/,
    ),
  ]);
});

test("a wrong image path names the file it looked for", () => {
  edit(dataDir, serviceFile(first!.slug), (doc) => doc.set("banner", "./images/no-such-banner.jpeg"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^data/services/${escape(first!.slug)}\\.yaml:\\d+:\\d+: field "banner": image file "\\./images/no-such-banner\\.jpeg" was not found \\(looked for data/services/images/no-such-banner\\.jpeg\\)`,
      ),
    ),
  ]);
});

test("a file that is not a readable image is named, with what to do", () => {
  const banner = String(
    parseDocument(fs.readFileSync(path.join(dataDir, serviceFile(first!.slug)), "utf8")).get("banner"),
  );
  const image = path.join(dataDir, "services", banner);
  for (const bytes of ["<html>Not found</html>", ""]) {
    fs.writeFileSync(image, bytes);
    expect(messages(dataDir)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^data/services/${escape(first!.slug)}\\.yaml:\\d+:\\d+: field "banner": image file "${escape(banner)}" is not an image the site can read \\(data/services/${escape(banner.replace(/^\.\//, ""))}: empty, damaged, or another kind of file with an image's name\\)\\. Save the picture again as JPEG or PNG`,
        ),
      ),
    ]);
  }
});

test("an image path without ./, as the editing studio writes it, is relative to the file too", () => {
  edit(dataDir, serviceFile(first!.slug), (doc) => doc.set("banner", String(doc.get("banner")).replace(/^\.\//, "")));
  expect(messages(dataDir)).toEqual([]);
  edit(dataDir, serviceFile(first!.slug), (doc) => doc.set("banner", "images/no-such-banner.jpeg"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(/field "banner": image file "images\/no-such-banner\.jpeg" was not found/),
  ]);
});

test("a service file whose slug is not its file name is reported, with both ways to mend it", () => {
  edit(dataDir, serviceFile(second!.slug), (doc) => doc.set("slug", "renamed-service"));
  const found = messages(dataDir);
  expect(found).toEqual(
    expect.arrayContaining([
      `data/services/${second!.slug}.yaml:2:7: field "slug": slug "renamed-service" does not match the file name ${second!.slug}.yaml: a service's file is named after its slug. Rename the file to renamed-service.yaml, or set slug to "${second!.slug}"`,
    ]),
  );
});

test("two services with the same order are reported on both, each naming the other, with a free number", () => {
  edit(dataDir, serviceFile(second!.slug), (doc) => doc.set("order", first!.order));
  const used = new Set(content.services.map((s) => (s === second ? first!.order : s.order)));
  const found = validateContent(dataDir);
  expect(found.map((p) => [p.file, p.field])).toEqual(
    expect.arrayContaining([
      [`data/${serviceFile(first!.slug)}`, "order"],
      [`data/${serviceFile(second!.slug)}`, "order"],
    ]),
  );
  expect(found).toHaveLength(2);
  for (const [self, other] of [
    [first!, second!],
    [second!, first!],
  ] as const) {
    const problem = found.find((p) => p.file === `data/${serviceFile(self.slug)}`)!;
    expect(problem.message).toMatch(
      new RegExp(
        `^${first!.order} is also the order of data/services/${escape(other.slug)}\\.yaml: give each service its own number`,
      ),
    );
    const suggested = Number(/\(e\.g\. (\d+) /.exec(problem.message)?.[1]);
    expect(used.has(suggested)).toBe(false);
  }
});

describe("a slug another service has, or a file name that is taken", () => {
  const slugProblems = () => validateContent(dataDir).filter((p) => p.field === "slug");
  /** The file names an advice proposes renaming to ("rename ... to x.yaml"). */
  const proposedNames = (message: string) =>
    [...message.matchAll(/(?<!not )[Rr]ename (?:the|this) file to ([\w.-]+\.yaml)/g)].map((m) => m[1]!);

  test("a copied file whose slug was not changed: both files are reported, once each, naming the other", () => {
    const copy = `services/${first!.slug}-copy.yaml`;
    fs.copyFileSync(path.join(dataDir, serviceFile(first!.slug)), path.join(dataDir, copy));
    const found = validateContent(dataDir);
    // Its order is the original's too: said in the same report, not as a second problem of each file.
    expect(found.map((p) => [p.file, p.field]).sort()).toEqual(
      [
        [`data/${copy}`, "slug"],
        [`data/${serviceFile(first!.slug)}`, "slug"],
      ].sort(),
    );
    const onCopy = found.find((p) => p.file === `data/${copy}`)!;
    const onOriginal = found.find((p) => p.file !== `data/${copy}`)!;
    expect(onCopy.message).toMatch(
      new RegExp(
        `^${escape(`slug "${first!.slug}" is also the slug of data/${serviceFile(first!.slug)}, and each service needs its own: set slug to "${first!.slug}-copy" to match this file's name (or choose another slug no other service has, and rename the file to match it). Its order, ${first!.order}, is that service's too: give it its own (e.g. `)}(\\d+)\\)\\. ${escape(`Do not rename this file to ${first!.slug}.yaml: that would replace the other service`)}$`,
      ),
    );
    const suggested = Number(/\(e\.g\. (\d+)\)/.exec(onCopy.message)![1]);
    expect(content.services.map((s) => s.order)).not.toContain(suggested);
    expect(onOriginal.message).toBe(
      `slug "${first!.slug}" is also the slug of data/${copy}, and each service needs its own: this file is named after it, so keep this one and change the slug and the order (${first!.order}) in data/${copy}`,
    );
    for (const problem of found) {
      for (const name of proposedNames(problem.message)) {
        expect(fs.existsSync(path.join(dataDir, "services", name))).toBe(false);
      }
    }
  });

  test("the same service saved as .yaml and .yml: the .yml one is the copy", () => {
    const yml = `services/${first!.slug}.yml`;
    fs.copyFileSync(path.join(dataDir, serviceFile(first!.slug)), path.join(dataDir, yml));
    const found = slugProblems();
    expect(found.find((p) => p.file === `data/${yml}`)!.message).toContain(
      `data/${serviceFile(first!.slug)} has the same name and slug: if this file is an old copy of it, delete this one`,
    );
    expect(found.find((p) => p.file !== `data/${yml}`)!.message).toContain(
      `keep this one: data/${yml} is an old copy to delete, or a service to give a slug of its own`,
    );
  });

  test("a slug changed to another service's: both are reported, and no advice renames onto the other file", () => {
    edit(dataDir, serviceFile(second!.slug), (doc) => doc.set("slug", first!.slug));
    const found = slugProblems();
    expect(found.map((p) => p.file).sort()).toEqual(
      [`data/${serviceFile(first!.slug)}`, `data/${serviceFile(second!.slug)}`].sort(),
    );
    const onChanged = found.find((p) => p.file === `data/${serviceFile(second!.slug)}`)!;
    expect(onChanged.message).toContain(`is also the slug of data/${serviceFile(first!.slug)}`);
    expect(onChanged.message).toContain(`set slug to "${second!.slug}"`);
    expect(found.find((p) => p !== onChanged)!.message).toContain(`data/${serviceFile(second!.slug)}`);
    for (const problem of found) expect(proposedNames(problem.message)).toEqual([]);
    // The dropdown still names the file's old slug: it says which file has which slug, not that the file is missing.
    const menu = validateContent(dataDir).find((p) => p.field?.startsWith("servicesMenu["));
    expect(menu?.message).toContain(
      `names the service "${second!.slug}", but no service has that slug: data/${serviceFile(second!.slug)} has the slug "${first!.slug}"`,
    );
  });

  test("a slug that names an existing file, with no service of that slug, is not renamed onto it", () => {
    // The other file cannot be read, so its slug is unknown; its name is taken all the same.
    fs.writeFileSync(path.join(dataDir, "services", "taken.yaml"), "slug: [unclosed\n");
    edit(dataDir, serviceFile(second!.slug), (doc) => doc.set("slug", "taken"));
    const problem = slugProblems().find((p) => p.file === `data/${serviceFile(second!.slug)}`)!;
    expect(problem.message).toBe(
      `slug "taken" does not match the file name ${second!.slug}.yaml: a service's file is named after its slug. taken.yaml is another file, so do not rename this one to it: set slug to "${second!.slug}", or choose another slug no other service has and rename the file to match it`,
    );
  });
});

describe("a file named .yml", () => {
  test("a service saved as .yml is reported under its own name, and no message names a .yaml file that is not there", () => {
    const yml = `services/${first!.slug}-copy.yml`;
    const text = fs.readFileSync(path.join(dataDir, serviceFile(first!.slug)), "utf8");
    fs.writeFileSync(
      path.join(dataDir, yml),
      text.replace(/^slug: .*$/m, `slug: ${first!.slug}-copy`).replace(/^order: .*$/m, "order: 9999"),
    );
    const { problems, warnings } = inspectContent(dataDir);
    expect(problems.map(formatProblem)).toEqual([
      `data/${yml}: the file name ends in .yml, but content files end in .yaml: rename it to ${first!.slug}-copy.yaml`,
    ]);
    expect(warnings.map(formatProblem)).toEqual([
      expect.stringMatching(
        new RegExp(
          `field "servicesMenu": does not list the service "${escape(first!.slug)}-copy" \\(data/${escape(yml)}\\)`,
        ),
      ),
    ]);
  });

  test("a page file saved as .yml is told to be renamed, and not also reported missing", () => {
    fs.renameSync(path.join(dataDir, "site/site.yaml"), path.join(dataDir, "site/site.yml"));
    expect(messages(dataDir)).toEqual([
      "data/site/site.yml: the file name ends in .yml, but content files end in .yaml: rename it to site.yaml",
    ]);
  });
});

test("a dropdown entry naming a service that does not exist is reported, and the service it replaced is a warning", () => {
  const index = content.navigation.servicesMenu.indexOf(second!.slug);
  edit(dataDir, "navigation/navigation.yaml", (doc) => doc.setIn(["servicesMenu", index], "no-such-service"));
  expect(inspectContent(dataDir).warnings.map(formatProblem)).toEqual([
    expect.stringMatching(
      new RegExp(
        `field "servicesMenu": does not list the service "${escape(second!.slug)}" .*the Services dropdown does not offer it. If that is not on purpose, add "- ${escape(second!.slug)}"`,
      ),
    ),
  ]);
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^data/navigation/navigation\\.yaml:\\d+:\\d+: field "servicesMenu\\[${index + 1}\\]": names the service "no-such-service", but there is no data/services/no-such-service\\.yaml \\(services: `,
      ),
    ),
  ]);
});

test("removing a service menu first, then its file: neither step is refused, and the first warns", () => {
  edit(dataDir, "navigation/navigation.yaml", (doc) =>
    doc.set(
      "servicesMenu",
      content.navigation.servicesMenu.filter((slug) => slug !== second!.slug),
    ),
  );
  const afterMenu = inspectContent(dataDir);
  expect(afterMenu.problems.map(formatProblem)).toEqual([]);
  expect(afterMenu.warnings.map(formatProblem)).toEqual([
    expect.stringContaining(`does not list the service "${second!.slug}" (data/${serviceFile(second!.slug)})`),
  ]);
  fs.rmSync(path.join(dataDir, serviceFile(second!.slug)));
  expect(inspectContent(dataDir)).toEqual({ problems: [], warnings: [] });
});

test("a misspelt dropdown entry says which service it was meant to be, and only that", () => {
  const index = content.navigation.servicesMenu.indexOf(second!.slug);
  const typo = second!.slug.slice(0, -1);
  edit(dataDir, "navigation/navigation.yaml", (doc) => doc.setIn(["servicesMenu", index], typo));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      new RegExp(`names the service "${escape(typo)}", .*: did you mean "${escape(second!.slug)}"\\?`),
    ),
  ]);
});

test("a gallery naming an approval that does not exist is reported", () => {
  expect(withGallery).toBeDefined();
  edit(dataDir, serviceFile(withGallery!.slug), (doc) => doc.setIn(["gallery", 0], "no-such-approval"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /field "gallery\[1\]": names the approval "no-such-approval", but there is no data\/approvals\/no-such-approval\.yaml/,
    ),
  ]);
});

test("a removed approval still named by a gallery is reported", () => {
  const key = withGallery!.gallery![0]!;
  fs.rmSync(path.join(dataDir, "approvals", `${key}.yaml`));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(new RegExp(`field "gallery\\[1\\]": names the approval "${escape(key)}", but there is no`)),
  ]);
});

test("the services folder needs at least one service", () => {
  for (const { slug } of content.services) fs.rmSync(path.join(dataDir, serviceFile(slug)));
  edit(dataDir, "navigation/navigation.yaml", (doc) => doc.set("servicesMenu", []));
  expect(messages(dataDir)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^data\/services\/: needs at least 1 service file/)]),
  );
});

test("a YAML file the site would not read (a misspelt folder) is reported", () => {
  fs.mkdirSync(path.join(dataDir, "service"));
  fs.copyFileSync(path.join(dataDir, serviceFile(first!.slug)), path.join(dataDir, "service", "new-service.yaml"));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      /^data\/service\/new-service\.yaml: is not a file the site reads\. Content files are .*data\/services\/<slug>\.yaml/,
    ),
  ]);
});

test.each([
  ["home/home.yaml", ["slides"]],
  ["contact/contact.yaml", ["region", "slides"]],
  ["why-cyrus/why-cyrus.yaml", ["cards"]],
  ["activities/activities.yaml", ["sections"]],
])("%s: any number of entries in %j, at least one", (file, at) => {
  edit(dataDir, file, (doc) => {
    const list = doc.getIn(at, true) as { items: unknown[] };
    list.items.push(list.items[0]);
  });
  expect(messages(dataDir)).toEqual([]);
  edit(dataDir, file, (doc) => doc.setIn(at, []));
  expect(messages(dataDir)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^data/${escape(file)}:\\d+:\\d+: field "${escape(at.join("."))}": must have at least 1 item \\(found 0\\)`,
      ),
    ),
  ]);
});

test("a YAML syntax error names the file, line and column", () => {
  const file = path.join(dataDir, "why-cyrus/why-cyrus.yaml");
  fs.writeFileSync(file, `${fs.readFileSync(file, "utf8")}\ncards: [unclosed\n`);
  const found = messages(dataDir);
  expect(found.length).toBeGreaterThan(0);
  for (const message of found) expect(message).toMatch(/^data\/why-cyrus\/why-cyrus\.yaml:\d+:\d+: /);
});

test("all problems are listed together for the build to print", () => {
  edit(dataDir, serviceFile(first!.slug), (doc) => doc.delete("title"));
  edit(dataDir, serviceFile(second!.slug), (doc) => doc.delete("title"));
  const text = formatProblems(validateContent(dataDir));
  expect(text).toMatch(/^The content check found 2 problems in data\/:/);
  expect(text).toContain(`data/services/${first!.slug}.yaml:`);
  expect(text).toContain(`data/services/${second!.slug}.yaml:`);
});

/** Replaces the first line of `file` that matches `line` (a RegExp) by `replace`'s result. */
function editLine(dataDir: string, file: string, line: RegExp, replace: (text: string) => string): number {
  const abs = path.join(dataDir, file);
  const lines = fs.readFileSync(abs, "utf8").split("\n");
  const index = lines.findIndex((text) => line.test(text));
  if (index < 0) throw new Error(`no line ${line} in ${file}`);
  lines[index] = replace(lines[index]!);
  fs.writeFileSync(abs, lines.join("\n"));
  return index + 1;
}

describe("an editor's slips, as the issue found them, are reported once, in plain words, with the fix", () => {
  const file = () => serviceFile(first!.slug);
  const noJargon = (text: string) => {
    expect(text).not.toMatch(/ {4}at |Error:|implicit map key|compact mapping|block sequence|Unresolved alias|scalar/);
  };

  test("a tab used to indent", () => {
    const line = editLine(dataDir, file(), /^ {2}- /, (text) => text.replace(/^ {2}/, "\t"));
    const found = messages(dataDir);
    expect(found).toEqual([
      expect.stringMatching(new RegExp(`^data/${escape(file())}:${line}:1: .*use spaces, not tabs, to indent`)),
    ]);
    noJargon(found.join("\n"));
  });

  test("a value starting with *", () => {
    const line = editLine(dataDir, file(), /^cardTitle: /, () => "cardTitle: *Featured*");
    const found = messages(dataDir);
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(`^data/${escape(file())}:${line}:\\d+: .*must be in double quotes.*cardTitle: "\\*Featured\\*"`),
      ),
    ]);
    noJargon(found.join("\n"));
  });

  test("text containing ': ' without quotes", () => {
    const line = editLine(dataDir, file(), /^cardTitle: /, () => "cardTitle: Study Design: Planning");
    const found = messages(dataDir);
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(`^data/${escape(file())}:${line}:\\d+: text containing ': ' must be in double quotes`),
      ),
    ]);
    noJargon(found.join("\n"));
  });

  test("a line indented one space too far names the line it should align with", () => {
    const line = editLine(dataDir, file(), /^cardTitle: /, (text) => ` ${text}`);
    const found = messages(dataDir);
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(`^data/${escape(file())}:${line}:\\d+: line ${line} is indented differently .*as line ${line - 1}`),
      ),
    ]);
    noJargon(found.join("\n"));
  });

  test("a ' #' that YAML would read as a comment stops the check: nothing is published cut short", () => {
    const line = editLine(dataDir, file(), /^cardTitle: /, () => "cardTitle: Project Management #1 in Chennai");
    expect(messages(dataDir)).toEqual([
      `data/${file()}:${line}:${"cardTitle: Project Management #".length}: field "cardTitle": YAML reads ' #' as the start of a comment, so "#1 in Chennai" would not be published: put the whole text in double quotes: cardTitle: "Project Management #1 in Chennai"`,
    ]);
  });

  test.each([
    ["1.10", /as a number and would publish 1\.1/],
    ["2022", /as a number, not text/],
    ["true", /as a yes\/no value, not text/],
    ["~", /"no value", so the field would be empty/],
    ["2022-01-01", /as a date, not text/],
  ])("a text field typed as %s is reported once, with the fix", (value, reason) => {
    editLine(dataDir, file(), /^cardTitle: /, () => `cardTitle: ${value}`);
    expect(messages(dataDir)).toEqual([expect.stringMatching(reason)]);
    expect(messages(dataDir)[0]).toContain(`put the whole text in double quotes: "${value}"`);
  });

  test("a tab inside a value", () => {
    editLine(dataDir, file(), /^cardTitle: /, (text) => text.replace(/ (\S+)$/, "\t$1"));
    expect(messages(dataDir)).toEqual([expect.stringMatching(/field "cardTitle": contains a tab character/)]);
  });

  describe("hand-edited YAML: one report, at the slip, with the fix", () => {
    const abs = () => path.join(dataDir, file());
    const lineOf = (pattern: RegExp) =>
      fs
        .readFileSync(abs(), "utf8")
        .split("\n")
        .findIndex((text) => pattern.test(text)) + 1;
    /** The service's banner as its YAML names it (./images/…), and that picture on disk. */
    const bannerPath = () => /^banner: (.*)$/m.exec(fs.readFileSync(abs(), "utf8"))![1]!;
    const banner = () => path.join(dataDir, "services", bannerPath());

    test.each<[string, () => void, () => { problems: string[]; warnings: string[] }]>([
      [
        "curly quotes around a whole value: a warning, and the check passes",
        () => editLine(dataDir, file(), /^title: /, (text) => text.replace(/^title: (.*)$/, "title: \u201c$1\u201d")),
        () => ({
          problems: [],
          warnings: [
            `data/${file()}:${lineOf(/^title: /)}:8: field "title": the text is in curly quotes (\u201c \u201d), which the page would show as typed: YAML's quotes are the straight " and '. If they are not meant to be seen, remove them: title: ${first!.title}`,
          ],
        }),
      ],
      [
        "a non-breaking space after title:",
        () => editLine(dataDir, file(), /^title: /, (text) => text.replace(/^title: /, "title:\u00a0")),
        () => ({
          problems: [
            `data/${file()}:${lineOf(/^title:/)}:7: after "title:" on line ${lineOf(/^title:/)} comes a non-breaking space (U+00A0), which looks like a space but is not one to YAML: replace it with an ordinary space`,
          ],
          warnings: [],
        }),
      ],
      [
        'the file saved as UTF-16, as Notepad\'s "Unicode" does: no false follow-on about a missing file',
        () =>
          fs.writeFileSync(
            abs(),
            Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(fs.readFileSync(abs(), "utf8"), "utf16le")]),
          ),
        () => ({
          problems: [
            `data/${file()}:1:1: the file is saved as UTF-16 (what Notepad calls "Unicode"), not UTF-8, so its text cannot be read: save it as UTF-8 (in Notepad: File, Save As, then Encoding: UTF-8; in other editors, "Save with encoding" or "Reopen with encoding")`,
          ],
          warnings: [],
        }),
      ],
      [
        "the first paragraph of the intro without a space after its dash",
        () =>
          fs.writeFileSync(
            abs(),
            fs.readFileSync(abs(), "utf8").replace(/^intro:\n(?: .*\n|\n)*/m, "intro:\n  -We manage projects.\n"),
          ),
        () => {
          const line = lineOf(/^ {2}-We manage/);
          return {
            problems: [
              `data/${file()}:${line}:3: field "intro": must be a list, but "-We manage projects." has no space after its dash, so YAML does not read it as a list entry: put a space after the dash: - We manage projects.`,
            ],
            warnings: [],
          };
        },
      ],
      [
        "an image path with a space and a capital ending, the picture so named",
        () => {
          fs.copyFileSync(banner(), path.join(dataDir, "services/images/PM Banner.JPG"));
          editLine(dataDir, file(), /^banner: /, () => "banner: ./images/PM Banner.JPG");
        },
        () => ({
          problems: [
            `data/${file()}:${lineOf(/^banner: /)}:9: field "banner": "./images/PM Banner.JPG" is not a file name the site accepts: it has a space and its ending .JPG is in capitals. Image file names use only letters, digits, dots, hyphens and underscores, and end in .jpg, .jpeg, .png, .webp or .avif in small letters: rename the picture data/services/images/PM Banner.JPG to pm-banner.jpg, and write ./images/pm-banner.jpg here`,
          ],
          warnings: [],
        }),
      ],
      [
        "an image path in capitals whose picture is there in small letters: no file to rename, the name to write",
        () =>
          editLine(
            dataDir,
            file(),
            /^banner: /,
            () =>
              `banner: ${bannerPath()
                .toUpperCase()
                .replace(/^\.\/IMAGES/, "./images")}`,
          ),
        () => ({
          problems: [
            // After the slip the YAML names the picture in capitals; on disk it is in small letters.
            `data/${file()}:${lineOf(/^banner: /)}:9: field "banner": "${bannerPath()}" is not a file name the site accepts: its ending .JPG is in capitals. Image file names use only letters, digits, dots, hyphens and underscores, and end in .jpg, .jpeg, .png, .webp or .avif in small letters: data/services/${bannerPath().toLowerCase().slice(2)} is there: write ${bannerPath().toLowerCase()} here`,
          ],
          warnings: [],
        }),
      ],
      [
        "an image path the site refuses, with no picture of that name nor of the accepted one",
        () => editLine(dataDir, file(), /^banner: /, () => "banner: ./images/New Banner.JPG"),
        () => ({
          problems: [
            `data/${file()}:${lineOf(/^banner: /)}:9: field "banner": "./images/New Banner.JPG" is not a file name the site accepts: it has a space and its ending .JPG is in capitals. Image file names use only letters, digits, dots, hyphens and underscores, and end in .jpg, .jpeg, .png, .webp or .avif in small letters: there is no picture data/services/images/New Banner.JPG either: put the picture in data/services/images/ as new-banner.jpg, and write ./images/new-banner.jpg here`,
          ],
          warnings: [],
        }),
      ],
      [
        "the file saved as .yml: reported under that name",
        () => fs.renameSync(abs(), abs().replace(/\.yaml$/, ".yml")),
        () => ({
          problems: [
            `data/services/${first!.slug}.yml: the file name ends in .yml, but content files end in .yaml: rename it to ${first!.slug}.yaml`,
          ],
          warnings: [],
        }),
      ],
    ])("%s", (_, slip, expected) => {
      slip();
      const { problems, warnings } = inspectContent(dataDir);
      const found = { problems: problems.map(formatProblem), warnings: warnings.map(formatProblem) };
      expect(found).toEqual(expected());
      noJargon([...found.problems, ...found.warnings].join("\n"));
    });
  });
});
