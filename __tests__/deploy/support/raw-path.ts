/**
 * A request whose path is sent exactly as written: "..", "%2e%2e" and "%2f" included. A URL string
 * (fetch, or ./http.ts's request) goes through the WHATWG URL parser first, which resolves dot
 * segments and %2e before the request leaves, so nginx would never see them.
 */
import { send, type RawAnswer } from "./http";

export function requestRawPath(
  origin: string,
  rawPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return send({ hostname, port, path: rawPath }, rawPath, options);
}
