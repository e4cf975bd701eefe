/**
 * A request whose path is sent exactly as written: "..", "%2e%2e" and "%2f" included. A URL string
 * (fetch, or ./http.ts's request) goes through the WHATWG URL parser first, which resolves dot
 * segments and %2e before the request leaves, so nginx would never see them.
 */
import http from "node:http";
import type { RawAnswer } from "./http";

export function requestRawPath(
  origin: string,
  rawPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname, port, path: rawPath, method: options.method ?? "GET", headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer for ${rawPath} in time`)));
    req.on("error", reject);
    req.end(options.body);
  });
}
