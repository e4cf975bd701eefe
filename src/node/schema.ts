import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { contentTypes, resolveTypedUnion } from "./content/graphql-types";
import { markdownFieldExtension } from "./content/markdown-field";

/**
 * Every YAML type is declared, never inferred: a missing required field fails the query with the
 * field's name, and `File! @fileByRelativePath` fails the build on a wrong image path. The
 * declarations are generated from the JSON Schemas in data/schemas (src/node/content/graphql-types.ts),
 * which also drive the validation and, through Gatsby's typegen, the TypeScript types. A union (the
 * sections of an added page) is declared again with its `resolveType`, which SDL cannot carry: Gatsby
 * would otherwise look for `internal.type`, which the entries of a YAML list do not have.
 */
export const createSchemaCustomization: GatsbyNode["createSchemaCustomization"] = ({ actions, reporter, schema }) => {
  let types: ReturnType<typeof contentTypes>;
  try {
    types = contentTypes(path.resolve("data"));
  } catch (error) {
    return reporter.panic(`The GraphQL types could not be made from data/schemas: ${(error as Error).message}`);
  }
  actions.createFieldExtension(markdownFieldExtension);
  if (types.unions.length === 0) return actions.createTypes(types.sdl);
  actions.createTypes([
    types.sdl,
    ...types.unions.map((union) =>
      schema.buildUnionType({
        name: union.name,
        types: Object.values(union.members),
        resolveType: resolveTypedUnion(union),
      }),
    ),
  ]);
};
