import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { contentTypeDefs } from "./content/graphql-types";

/**
 * Every YAML type is declared, never inferred: a missing required field fails the query with the
 * field's name, and `File! @fileByRelativePath` fails the build on a wrong image path. The
 * declarations are generated from the JSON Schemas in data/schemas (src/node/content/graphql-types.ts),
 * which also drive the validation and, through Gatsby's typegen, the TypeScript types.
 */
export const createSchemaCustomization: GatsbyNode["createSchemaCustomization"] = ({ actions, reporter }) => {
  let typeDefs: string;
  try {
    typeDefs = contentTypeDefs(path.resolve("data"));
  } catch (error) {
    return reporter.panic(`The GraphQL types could not be made from data/schemas: ${(error as Error).message}`);
  }
  actions.createTypes(typeDefs);
};
