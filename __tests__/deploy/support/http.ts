/** Plain HTTP/1.1 requests that show the answer exactly as sent: no redirects followed, no decompression. */
import http from "node:http";
import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header lines as received, repeated ones kept apart (to count them). */
  rawHeaders: string[];
  body: Buffer;
}

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return send(url, url, options);
}

/**
 * The request itself, to an address (a URL string, which the WHATWG parser normalises) or to a host,
 * port and path given apart (sent exactly as written: ./raw-path.ts).
 */
export function send(
  target: string | { hostname: string; port: string; path: string },
  name: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const settings = { method: options.method ?? "GET", headers: options.headers, agent: false as const };
    const answer = (res: http.IncomingMessage) => {
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
    };
    const req =
      typeof target === "string"
        ? http.request(target, settings, answer)
        : http.request({ ...target, ...settings }, answer);
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`no answer from ${name} in time`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/** How many times a header occurs in an answer. */
export function headerCount(answer: RawAnswer, name: string): number {
  return answer.rawHeaders.filter((value, i) => i % 2 === 0 && value.toLowerCase() === name.toLowerCase()).length;
}

/** A CSP header as a map of directive → its source list. */
export function parseCsp(header: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

/**
 * A POST /api/email straight to a server whose body arrives in two parts, the second only when
 * send() is called: a request that is certainly in flight meanwhile. closed resolves with the raw answer.
 */
export function slowPost(port: number, body: string) {
  const bytes = Buffer.from(body, "utf8");
  const half = Math.floor(bytes.length / 2);
  const socket = net.connect(port, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(answer)));
  socket.on("error", () => undefined);
  socket.write(
    `POST /api/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`,
  );
  socket.write(bytes.subarray(0, half));
  return { send: () => socket.write(bytes.subarray(half)), closed, socket };
}

/** The JSON body of a raw HTTP/1.1 answer (chunked or not). */
export const rawJson = (answer: string) => JSON.parse(answer.match(/\{.*\}/s)![0]) as Record<string, unknown>;
