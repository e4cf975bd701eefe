/** Request headers as node:http gives them (lower-case names; repeated ones as arrays). */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** One header's value; a repeated header is joined with commas, as RFC 9110 allows for lists. */
export function header(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : value.join(", ");
}
