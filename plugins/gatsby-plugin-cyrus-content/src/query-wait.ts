/**
 * develop: the root fields that read content (servicesYaml, allServicesYaml, navigationYaml, …) wait,
 * bounded, until the content plugin's hand-overs to Gatsby are in (DevelopSession.readyForQuery)
 * before they read. Gatsby applies a changed file at once while it runs queries, without its nodes
 * until onCreateNode makes them again; a query that read in between kept the page or the menu without
 * them, and Gatsby did not run it again (1 develop test run in 15 under load).
 */

/** The little of a GraphQL field and type this reads (graphql-js's classes have it). */
interface FieldType {
  name?: string;
  ofType?: FieldType | null;
}
export interface SchemaLike {
  getQueryType(): { getFields(): Record<string, { type: FieldType }> } | null | undefined;
}

type Resolve = (source: unknown, args: unknown, context: unknown, info: ResolveInfo) => unknown;
export interface ResolveInfo {
  originalResolver: Resolve;
}

const CONTENT_TYPE = /Yaml(Connection)?$/;

function namedType(type: FieldType): string | undefined {
  let current: FieldType | null | undefined = type;
  while (current?.ofType) current = current.ofType;
  return current?.name;
}

/** The Query fields whose type is a content type (…Yaml) or a list of them (…YamlConnection). */
export function contentQueryFields(schema: SchemaLike): string[] {
  const fields = schema.getQueryType()?.getFields() ?? {};
  return Object.entries(fields)
    .filter(([, field]) => CONTENT_TYPE.test(namedType(field.type) ?? ""))
    .map(([name]) => name);
}

/** createResolvers' argument: each field waits for `ready`, then resolves as Gatsby would have. */
export function waitingResolvers(fields: readonly string[], ready: () => Promise<void>) {
  const resolve: Resolve = async (source, args, context, info) => {
    await ready();
    return info.originalResolver(source, args, context, info);
  };
  return { Query: Object.fromEntries(fields.map((name) => [name, { resolve }])) };
}
