/**
 * A git host over HTTP on loopback that wants a token, for the release's credential tests: it stands
 * for GitHub, GitLab or Gitea, which cannot be reached from the test machines. git's own CGI
 * (`git http-backend`, from /usr/lib/git-core) serves the repositories of a folder; in front of it a
 * small node:http server asks for HTTP Basic authentication (401 with WWW-Authenticate, as the hosts
 * answer a clone without a token) and passes on only requests that carry `username:token`.
 *
 * Each request is held `delayMs` before it is answered, so that git's processes on the client's side
 * (git-remote-http, fetch-pack) live long enough for a test to see their command lines.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";

export const HTTP_BACKEND = "/usr/lib/git-core/git-http-backend";

export interface GitHost {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests answered 401: without credentials, and with wrong ones. */
  counts: { challenged: number; refused: number; served: number };
  close(): Promise<void>;
}

/** The CGI's answer: its headers (Status: among them) up to the blank line, then the body as it comes. */
function relay(child: ReturnType<typeof spawn>, res: http.ServerResponse): void {
  let head = Buffer.alloc(0);
  let started = false;
  child.stdout!.on("data", (chunk: Buffer) => {
    if (started) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    const endLf = head.indexOf("\n\n");
    const [at, length] = end >= 0 && (endLf < 0 || end < endLf) ? [end, 4] : [endLf, 2];
    if (at < 0) return;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, at).toString("latin1").split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    started = true;
    res.write(head.subarray(at + length));
  });
  child.stdout!.on("end", () => {
    if (!started) res.writeHead(502);
    res.end();
  });
}

export async function startGitHost(options: {
  /** The folder whose bare repositories it serves (GIT_PROJECT_ROOT). */
  projectRoot: string;
  username: string;
  token: string;
  delayMs?: number;
}): Promise<GitHost> {
  if (!fs.existsSync(HTTP_BACKEND)) throw new Error(`${HTTP_BACKEND} is missing (Debian's git package has it)`);
  const expected = `Basic ${Buffer.from(`${options.username}:${options.token}`).toString("base64")}`;
  const counts = { challenged: 0, refused: 0, served: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const auth = req.headers.authorization;
    if (auth !== expected) {
      if (auth) counts.refused += 1;
      else counts.challenged += 1;
      req.resume();
      res.writeHead(401, { "www-authenticate": 'Basic realm="git host stand-in"' }).end("authentication required\n");
      return;
    }
    counts.served += 1;
    setTimeout(() => {
      const child = spawn(HTTP_BACKEND, [], {
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          GIT_PROJECT_ROOT: options.projectRoot,
          GIT_HTTP_EXPORT_ALL: "1",
          REQUEST_METHOD: req.method ?? "GET",
          PATH_INFO: decodeURIComponent(url.pathname),
          QUERY_STRING: url.search.slice(1),
          CONTENT_TYPE: req.headers["content-type"] ?? "",
          ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
          HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
          GIT_PROTOCOL: String(req.headers["git-protocol"] ?? ""),
          REMOTE_USER: options.username,
          REMOTE_ADDR: "127.0.0.1",
          SERVER_PROTOCOL: "HTTP/1.1",
        },
        stdio: ["pipe", "pipe", "inherit"],
      });
      req.pipe(child.stdin);
      relay(child, res);
    }, options.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
