/**
 * The part of JSON Schema the content schemas use, with this project's x- keywords (graphql-types.ts
 * describes them), apart from the modules that use it, so that none of them imports another for it.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  $ref?: string;
  "x-graphql-type"?: string;
  "x-image-path"?: boolean;
  "x-link"?: { to: string; by: string };
  [keyword: string]: unknown;
}
