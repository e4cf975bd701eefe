/**
 * @jest-environment node
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kind, parse, print, type ObjectTypeDefinitionNode } from "graphql";
import { parseDocument } from "yaml";
import { contentFiles } from "../../src/node/content/content-files";
import {
  contentTypeDefs,
  graphqlTypeDefs,
  graphqlTypes,
  resolveTypedUnion,
  nodeTypeName,
  type JsonSchema,
  type SchemaSource,
} from "../../src/node/content/graphql-types";
import { formatProblem } from "../../src/node/content/problems";
import { validateContent } from "../../src/node/content/validate";
import { createSchemaCustomization } from "../../src/node/schema";
import { markdownFieldExtension } from "../../src/node/content/markdown-field";
import { parseMarkdownSubset } from "../../src/node/content/markdown-subset";

const realData = path.resolve(__dirname, "../../data");

/** Every object type of an SDL: its interfaces and directives, then its fields as printed (`name: Type @directive`). */
function shape(sdl: string): Record<string, string[]> {
  const types = parse(sdl).definitions.filter(
    (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION,
  );
  return Object.fromEntries(
    types
      .map((t): [string, string[]] => [
        t.name.value,
        [
          `implements ${(t.interfaces ?? []).map(print).join(" & ")}`,
          `directives ${(t.directives ?? []).map(print).join(" ")}`,
          ...(t.fields ?? []).map(print),
        ],
      ])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** The fields of one type, `name: Type @directive` each. */
function fieldsOf(sdl: string, type: string): string[] {
  const found = shape(sdl)[type];
  if (!found) throw new Error(`no type ${type} in\n${sdl}`);
  return found.slice(2);
}

function source(file: string, schema: JsonSchema): SchemaSource {
  return { file, schemaPath: `data/schemas/${path.posix.basename(path.posix.dirname(file))}.schema.json`, schema };
}

describe("the content's JSON Schemas as GraphQL types", () => {
  test("are what createSchemaCustomization gives Gatsby, with each union's resolveType and the Markdown fields' resolver", () => {
    const createTypes = jest.fn();
    const createFieldExtension = jest.fn();
    const panic = jest.fn();
    const buildUnionType = (config: unknown) => ({ kind: "UNION", config });
    (createSchemaCustomization as (args: unknown) => void)({
      actions: { createTypes, createFieldExtension },
      reporter: { panic },
      schema: { buildUnionType },
    });
    expect(panic).not.toHaveBeenCalled();
    expect(createFieldExtension).toHaveBeenCalledWith(markdownFieldExtension);
    const [[types]] = createTypes.mock.calls as [
      [[string, { config: { name: string; types: string[]; resolveType: (v: unknown) => string } }]],
    ];
    expect(types[0]).toBe(contentTypeDefs(realData));
    const union = types[1].config;
    expect(union).toMatchObject({ name: "PageSection", types: expect.arrayContaining(["PageCardsSection"]) });
    // Gatsby's default reads internal.type, which an entry of a YAML list does not have.
    expect(union.resolveType({ type: "cards", cards: [] })).toBe("PageCardsSection");
    expect(union.resolveType({ type: "contact-strip" })).toBe("PageContactStripSection");
  });

  test("every content file is a node type named as gatsby-transformer-yaml names it", () => {
    const sdl = contentTypeDefs(realData);
    const nodes = Object.entries(shape(sdl))
      .filter(([, [implementsLine]]) => implementsLine === "implements Node")
      .map(([name, [, directives]]) => [name, directives]);
    expect(Object.fromEntries(nodes)).toEqual({
      AboutYaml: "directives @dontInfer",
      ActivitiesYaml: "directives @dontInfer",
      ApprovalsYaml: "directives @dontInfer",
      ContactYaml: "directives @dontInfer",
      EnquiryResultsYaml: "directives @dontInfer",
      HomeYaml: "directives @dontInfer",
      NavigationYaml: "directives @dontInfer",
      NotFoundYaml: "directives @dontInfer",
      PagesYaml: "directives @dontInfer",
      ServicesPageYaml: "directives @dontInfer",
      ServicesYaml: "directives @dontInfer",
      SiteYaml: "directives @dontInfer",
      WhyCyrusYaml: "directives @dontInfer",
    });
    expect(contentFiles.map(({ file }) => nodeTypeName(file, false))).toEqual([
      "SiteYaml",
      "NavigationYaml",
      "ServicesYaml",
      "ApprovalsYaml",
      "PagesYaml",
      "HomeYaml",
      "AboutYaml",
      "ServicesPageYaml",
      "ActivitiesYaml",
      "WhyCyrusYaml",
      "ContactYaml",
      "NotFoundYaml",
      "EnquiryResultsYaml",
    ]);
  });

  test("keeps the names of the nested types, shared ones declared once", () => {
    const sdl = contentTypeDefs(realData);
    expect(Object.keys(shape(sdl))).toEqual(
      expect.arrayContaining([
        "SiteAddress",
        "SocialLink",
        "Messaging",
        "SiteLabels",
        "NavItem",
        "PageLink",
        "ServiceSection",
        "ServiceSubsection",
        "Slide",
        "TextBlock",
        "HeadedText",
        "FounderMessage",
        "AboutOverview",
        "BulletColumn",
        "ActivitySection",
        "WhyCard",
        "ContactForm",
        "ContactMap",
        "ContactRegion",
        "EnquiryResultPage",
      ]),
    );
    // Slide: home.yaml's slides and contact.yaml's region.slides; HeadedText: about.yaml's mission and vision.
    expect(sdl.match(/^type Slide /gm)).toHaveLength(1);
    expect(sdl.match(/^type HeadedText /gm)).toHaveLength(1);
    expect(sdl.match(/^type EnquiryResultPage /gm)).toHaveLength(1);
    expect(fieldsOf(sdl, "EnquiryResultsYaml")).toEqual([
      "heading: String!",
      "backLink: String!",
      "sent: EnquiryResultPage!",
      "error: EnquiryResultPage!",
      "incomplete: EnquiryResultPage!",
    ]);
  });

  test("required fields get !, list items always, images are Files by relative path, references are links", () => {
    const sdl = contentTypeDefs(realData);
    expect(fieldsOf(sdl, "SiteYaml")).toEqual(
      expect.arrayContaining(["logo: File! @fileByRelativePath", "foundingYear: Int!", "social: [SocialLink!]!"]),
    );
    expect(fieldsOf(sdl, "NavItem")).toEqual(["label: String!", "to: String!", "dropdown: Boolean"]);
    expect(fieldsOf(sdl, "NavigationYaml")).toEqual([
      "main: [NavItem!]!",
      'servicesMenu: [ServicesYaml!]! @link(by: "slug")',
    ]);
    expect(fieldsOf(sdl, "ServicesYaml")).toEqual(
      expect.arrayContaining([
        "intro: [String!]!",
        "sections: [ServiceSection!]",
        'gallery: [ApprovalsYaml!] @link(by: "key")',
      ]),
    );
    expect(fieldsOf(sdl, "Slide")).toEqual(["image: File! @fileByRelativePath", "alt: String!"]);
  });
});

describe("a typed list (the sections of an added page) is a union resolved by its type", () => {
  const kinds = (): Record<string, JsonSchema> => ({
    quote: {
      type: "object",
      "x-graphql-type": "Quote",
      properties: { type: { type: "string", const: "quote" }, text: { type: "string", "x-markdown": true } },
      required: ["type", "text"],
    },
    picture: {
      type: "object",
      properties: { type: { type: "string", const: "picture" }, alt: { type: "string" } },
      required: ["type"],
    },
  });
  const blocks = (items: JsonSchema): SchemaSource =>
    source("news/news.yaml", {
      type: "object",
      properties: { blocks: { type: "array", items } },
      $defs: kinds(),
    });
  const typed: JsonSchema = {
    type: "object",
    "x-graphql-type": "Block",
    discriminator: { propertyName: "type" },
    required: ["type"],
    oneOf: [{ $ref: "#/$defs/quote" }, { $ref: "#/$defs/picture" }],
  };

  test("the union of its kinds' types, Markdown as JSON made by the parser, and the member of each entry by its type", () => {
    const { sdl, unions } = graphqlTypes([blocks(typed)]);
    expect(sdl).toMatch(/^union Block = Quote \| NewsYamlPicture$/m);
    expect(fieldsOf(sdl, "NewsYaml")).toEqual(["blocks: [Block!]"]);
    expect(fieldsOf(sdl, "Quote")).toEqual(["type: String!", "text: JSON! @markdownSubset"]);
    const resolveType = resolveTypedUnion(unions[0]!);
    expect(resolveType({ type: "picture", alt: "x" })).toBe("NewsYamlPicture");
    expect(resolveType({ type: "quote" })).toBe("Quote");
    expect(resolveType({ internal: { type: "Quote" } })).toBeUndefined();
  });

  test("the added pages' sections, with the names the components query", () => {
    const sdl = contentTypeDefs(realData);
    expect(fieldsOf(sdl, "PagesYaml")).toContain("sections: [PageSection!]!");
    expect(sdl).toMatch(
      /^union PageSection = PageTextSection \| PagePictureWithTextSection \| PageCardsSection \| PageCallToActionSection \| PageQuestionsSection \| PageSlideshowSection \| PageContactStripSection$/m,
    );
    expect(fieldsOf(sdl, "PageTextSection")).toEqual(["type: String!", "body: JSON! @markdownSubset"]);
    expect(fieldsOf(sdl, "PageQuestion")).toContain("answer: JSON! @markdownSubset");
  });

  test("a Markdown field resolves to the parser's tree when a query asks", async () => {
    const { resolve } = markdownFieldExtension.extend();
    await expect(resolve({ body: "Some *text*" }, {}, {}, { fieldName: "body" })).resolves.toEqual(
      parseMarkdownSubset("Some *text*").tree,
    );
    await expect(resolve({}, {}, {}, { fieldName: "heading" })).resolves.toBeNull();
  });

  test.each<[string, JsonSchema]>([
    ["a branch that is not a $ref", { ...typed, oneOf: [{ type: "object" }] }],
    ["a kind without a const type", { ...typed, oneOf: [{ $ref: "#/$defs/quote" }, { $ref: "#/properties/title" }] }],
    ["a discriminator without oneOf", { type: "object", discriminator: { propertyName: "type" } }],
  ])("%s is refused, naming the place", (_, items) => {
    expect(() => graphqlTypes([blocks(items)])).toThrow(
      /^data\/schemas\/news\.schema\.json#\/properties\/blocks\/items: a "discriminator" goes with "oneOf"/,
    );
  });
});

describe("adding an optional field is a schema edit", () => {
  let dataDir: string;

  beforeEach(() => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-schema-"));
    fs.cpSync(realData, path.join(root, "data"), { recursive: true });
    dataDir = path.join(root, "data");
    // The one edit: an optional "subtitle" in about.schema.json.
    const schemaFile = path.join(dataDir, "schemas/about.schema.json");
    const schema = JSON.parse(fs.readFileSync(schemaFile, "utf8")) as JsonSchema;
    schema.properties = { ...schema.properties, subtitle: { type: "string", minLength: 1 } };
    fs.writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
  });

  afterEach(() => {
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  function setInAbout(key: string, value: string): void {
    const file = path.join(dataDir, "about/about.yaml");
    const doc = parseDocument(fs.readFileSync(file, "utf8"));
    doc.set(key, value);
    fs.writeFileSync(file, String(doc));
  }

  test("the GraphQL type gains a nullable field, and nothing else changes", () => {
    const before = shape(contentTypeDefs(realData));
    const after = shape(contentTypeDefs(dataDir));
    expect(after.AboutYaml).toEqual([...before.AboutYaml!, "subtitle: String"]);
    expect({ ...after, AboutYaml: undefined }).toEqual({ ...before, AboutYaml: undefined });
  });

  test("the validation accepts the file without the field and with it", () => {
    expect(validateContent(dataDir).map(formatProblem)).toEqual([]);
    setInAbout("subtitle", "Since 2012");
    expect(validateContent(dataDir).map(formatProblem)).toEqual([]);
  });

  test("the validation rejects a misspelt field, naming the file, the line and the field", () => {
    setInAbout("subtitel", "Since 2012");
    expect(validateContent(dataDir).map(formatProblem)).toEqual([
      expect.stringMatching(
        /^data\/about\/about\.yaml:\d+:\d+: field "subtitel": is not a known field: did you mean "subtitle"\? \(known fields here: .*subtitle/,
      ),
    ]);
  });
});

describe("the mapping", () => {
  const page = (properties: Record<string, JsonSchema>, extra: Partial<JsonSchema> = {}): JsonSchema => ({
    type: "object",
    properties,
    ...extra,
  });

  test("scalars, required fields, lists, images and nested objects", () => {
    const sdl = graphqlTypeDefs([
      source(
        "events/events.yaml",
        page(
          {
            name: { type: "string" },
            year: { type: "integer" },
            ratio: { type: "number" },
            open: { type: "boolean" },
            photo: { type: "string", "x-image-path": true },
            thumbnail: { type: "string", "x-image-path": true },
            tags: { type: "array", items: { type: "string" } },
            grid: { type: "array", items: { type: "array", items: { type: "integer" } } },
            venue: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
            talks: {
              type: "array",
              items: { type: "object", "x-graphql-type": "Talk", properties: { title: { type: "string" } } },
            },
          },
          { required: ["name", "year", "photo", "tags", "talks"] },
        ),
      ),
    ]);
    expect(fieldsOf(sdl, "EventsYaml")).toEqual([
      "name: String!",
      "year: Int!",
      "ratio: Float",
      "open: Boolean",
      "photo: File! @fileByRelativePath",
      "thumbnail: File @fileByRelativePath",
      "tags: [String!]!",
      "grid: [[Int!]!]",
      // No name given: Gatsby's own convention, parent type + field.
      "venue: EventsYamlVenue",
      "talks: [Talk!]!",
    ]);
    expect(fieldsOf(sdl, "EventsYamlVenue")).toEqual(["city: String!"]);
    expect(fieldsOf(sdl, "Talk")).toEqual(["title: String"]);
    expect(sdl).toMatch(/^type EventsYaml implements Node @dontInfer \{$/m);
  });

  test("an array file is one node per entry, named after the file; an object file is named after its folder", () => {
    const entry = page({ key: { type: "string" } }, { required: ["key"] });
    const sdl = graphqlTypeDefs([
      source("partners/partner-list.yaml", { type: "array", items: entry }),
      source("opening-hours/hours.yaml", page({ note: { type: "string" } })),
    ]);
    expect(Object.keys(shape(sdl)).sort()).toEqual(["OpeningHoursYaml", "PartnerListYaml"]);
    expect(() => nodeTypeName("FAQ/faq.yaml", false)).toThrow(/lowercase words joined by hyphens \(found "FAQ"\)/);
  });

  test("$ref to a definition: one type, named by x-graphql-type or after the definition", () => {
    const sdl = graphqlTypeDefs([
      source("team/team.yaml", {
        type: "object",
        definitions: {
          person: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          "press-link": { type: "object", "x-graphql-type": "PressLink", properties: { url: { type: "string" } } },
          portrait: { type: "string", "x-image-path": true },
        },
        properties: {
          members: { type: "array", items: { $ref: "#/definitions/person" } },
          lead: { $ref: "#/definitions/person", description: "siblings of $ref are ignored" },
          press: { $ref: "#/definitions/press-link" },
          photo: { $ref: "#/definitions/portrait" },
        },
        required: ["lead", "photo"],
      }),
    ]);
    expect(fieldsOf(sdl, "TeamYaml")).toEqual([
      "members: [TeamYamlPerson!]",
      "lead: TeamYamlPerson!",
      "press: PressLink",
      "photo: File! @fileByRelativePath",
    ]);
    expect(sdl.match(/^type TeamYamlPerson /gm)).toHaveLength(1);
  });

  test("x-link names a required field of another content file", () => {
    const posts = source("posts/posts.yaml", {
      type: "array",
      items: page({ slug: { type: "string" } }, { required: ["slug"] }),
    });
    const link = (to: string, by: string): SchemaSource =>
      source(
        "featured/featured.yaml",
        page({ posts: { type: "array", items: { type: "string", "x-link": { to, by } } } }, { required: ["posts"] }),
      );
    expect(fieldsOf(graphqlTypeDefs([posts, link("posts/posts.yaml", "slug")]), "FeaturedYaml")).toEqual([
      'posts: [PostsYaml!]! @link(by: "slug")',
    ]);
    expect(() => graphqlTypeDefs([posts, link("post/posts.yaml", "slug")])).toThrow(
      'data/schemas/featured.schema.json#/properties/posts/items: "x-link" needs "to": one of the content files (posts/posts.yaml, featured/featured.yaml), found "post/posts.yaml"',
    );
    expect(() => graphqlTypeDefs([posts, link("posts/posts.yaml", "title")])).toThrow(
      /"x-link" needs "by": a required field of posts\/posts\.yaml/,
    );
  });

  test("a type name used twice must describe the same fields", () => {
    const slide = (fields: Record<string, JsonSchema>): JsonSchema => ({
      type: "array",
      items: { type: "object", "x-graphql-type": "Slide", properties: fields, required: Object.keys(fields) },
    });
    const same = graphqlTypeDefs([
      source("home/home.yaml", page({ slides: slide({ alt: { type: "string" } }) })),
      source("contact/contact.yaml", page({ slides: slide({ alt: { type: "string" } }) })),
    ]);
    expect(same.match(/^type Slide /gm)).toHaveLength(1);
    expect(() =>
      graphqlTypeDefs([
        source("home/home.yaml", page({ slides: slide({ alt: { type: "string" } }) })),
        source(
          "contact/contact.yaml",
          page({ slides: slide({ alt: { type: "string" }, caption: { type: "string" } }) }),
        ),
      ]),
    ).toThrow(
      /^data\/schemas\/contact\.schema\.json#\/properties\/slides\/items: the GraphQL type Slide is also declared at data\/schemas\/home\.schema\.json#\/properties\/slides\/items with other fields/,
    );
  });

  test.each<[string, JsonSchema, RegExp]>([
    [
      "a type list",
      { type: ["string", "null"] },
      /#\/properties\/field: cannot tell the GraphQL type: give one "type" .*, not \["string","null"\]/,
    ],
    [
      "oneOf",
      { oneOf: [{ type: "string" }, { type: "integer" }] },
      /#\/properties\/field: cannot tell the GraphQL type/,
    ],
    [
      "a map without properties",
      { type: "object", additionalProperties: { type: "string" } },
      /#\/properties\/field: an object needs "properties"/,
    ],
    [
      "an image that is not a string",
      { type: "array", "x-image-path": true, items: { type: "string" } },
      /#\/properties\/field: "x-image-path" and "x-link" describe a string/,
    ],
    [
      "a $ref to another file",
      { $ref: "other.schema.json#/definitions/x" },
      /#\/properties\/field: only a \$ref to a definition in the same schema/,
    ],
    [
      "a $ref to nothing",
      { $ref: "#/definitions/missing" },
      /#\/properties\/field: the \$ref "#\/definitions\/missing" points to nothing/,
    ],
    ["null", { type: "null" }, /#\/properties\/field: the type "null" has no GraphQL counterpart here/],
  ])("%s is reported with the schema file and the place in it", (_, field, message) => {
    expect(() => graphqlTypeDefs([source("news/news.yaml", page({ field }))])).toThrow(message);
    expect(() => graphqlTypeDefs([source("news/news.yaml", page({ field }))])).toThrow(
      /^data\/schemas\/news\.schema\.json#/,
    );
  });

  test("field names must be GraphQL names and not a node's own fields", () => {
    expect(() => graphqlTypeDefs([source("news/news.yaml", page({ "read-more": { type: "string" } }))])).toThrow(
      /news\.schema\.json#\/properties\/read-more: "read-more" is not a valid GraphQL field name/,
    );
    expect(() => graphqlTypeDefs([source("news/news.yaml", page({ id: { type: "string" } }))])).toThrow(
      /a field cannot be called "id"/,
    );
  });
});
