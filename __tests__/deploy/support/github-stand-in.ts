/**
 * A local stand-in for GitHub, on loopback: the real github.com cannot be reached from the machines
 * the tests run on. It plays the parts the studio's sign-in meets:
 *
 *   GET  /login/oauth/authorize      GitHub's page for an app the editor has already authorised: it
 *                                    sends the window straight back to redirect_uri with a code and
 *                                    the state (after checking client_id and the registered callback)
 *   POST /login/oauth/access_token   the code for a token (client id, secret, code once, redirect_uri)
 *   /api/…                           the REST calls Decap makes at sign-in and to list the collections
 *                                    (/user, the repository and its permissions, trees and blobs of
 *                                    data/), answered from this working copy's git HEAD, for the
 *                                    token it issued only; CORS as api.github.com sends it
 *
 * Every request is recorded, so the tests see what was sent (and what the studio asked for).
 */
import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { projectRoot } from "../../support/serve";

export interface StandInRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: Record<string, string>;
  authorization?: string;
  /** The stand-in's answer. */
  status?: number;
}

export interface GitHubStandIn {
  /** http://127.0.0.1:<port>: GITHUB_OAUTH_URL */
  origin: string;
  /** origin + /api: CMS_API_ROOT */
  apiRoot: string;
  requests: StandInRequest[];
  /** Tokens issued so far. */
  tokens: string[];
  user: { login: string; name: string };
  close(): Promise<void>;
}

export interface StandInOptions {
  clientId: string;
  clientSecret: string;
  /** The OAuth app's registered callback URL: GitHub refuses any other (a function: known later). */
  callbackUrl: string | (() => string);
  repo: string;
  branch?: string;
}

const git = (args: string[]) => execFileSync("git", ["-C", projectRoot, ...args], { maxBuffer: 64 << 20 });

function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (String(req.headers["content-type"]).startsWith("application/json"))
    return JSON.parse(text || "{}") as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startGitHubStandIn(options: StandInOptions): Promise<GitHubStandIn> {
  const branch = options.branch ?? "main";
  const callbackUrl = () => (typeof options.callbackUrl === "string" ? options.callbackUrl : options.callbackUrl());
  const requests: StandInRequest[] = [];
  const tokens: string[] = [];
  const codes = new Map<string, string>(); // code → the redirect_uri it was issued for
  const user = { login: "jane-editor", name: "Jane Editor" };
  let counter = 0;
  const repoPath = `/api/repos/${options.repo}`;

  const api = (req: http.IncomingMessage, res: http.ServerResponse, path: string, query: URLSearchParams) => {
    // CORS as api.github.com answers it: the studio calls from the site's origin.
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-expose-headers": "ETag, Link, X-GitHub-Request-Id",
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "GET, POST, PATCH, PUT, DELETE",
        "access-control-allow-headers": String(req.headers["access-control-request-headers"] ?? "authorization"),
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }
    const token = /^(?:token|bearer) (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    if (!token || !tokens.includes(token)) {
      json(res, 401, { message: "Bad credentials" }, cors);
      return;
    }
    if (path === "/api/user") {
      json(res, 200, { ...user, id: 1, avatar_url: "", email: null }, cors);
      return;
    }
    if (path === repoPath) {
      json(
        res,
        200,
        {
          full_name: options.repo,
          name: options.repo.split("/")[1],
          owner: { login: options.repo.split("/")[0] },
          default_branch: branch,
          private: true,
          permissions: { admin: false, push: true, pull: true },
        },
        cors,
      );
      return;
    }
    if (path === `${repoPath}/collaborators/${user.login}/permission`) {
      json(res, 200, { permission: "write" }, cors);
      return;
    }
    if (path === `${repoPath}/branches/${branch}`) {
      json(res, 200, { name: branch, commit: { sha: git(["rev-parse", "HEAD"]).toString().trim() } }, cors);
      return;
    }
    const tree = new RegExp(`^${repoPath}/git/trees/${branch}:(.+)$`).exec(path);
    if (tree) {
      const folder = decodeURIComponent(tree[1]!);
      let listing: string;
      try {
        listing = git(["ls-tree", "-l", ...(query.get("recursive") ? ["-r"] : []), `HEAD:${folder}`]).toString();
      } catch {
        json(res, 404, { message: "Not Found" }, cors);
        return;
      }
      const entries = listing
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const [meta, name] = line.split("\t") as [string, string];
          const [mode, type, sha, size] = meta.split(/\s+/) as [string, string, string, string];
          return { path: name, mode, type, sha, ...(type === "blob" ? { size: Number(size) } : {}) };
        });
      json(res, 200, { sha: "0".repeat(40), tree: entries, truncated: false }, cors);
      return;
    }
    const blob = new RegExp(`^${repoPath}/git/blobs/([0-9a-f]{40})$`).exec(path);
    if (blob) {
      const content = git(["cat-file", "blob", blob[1]!]);
      json(
        res,
        200,
        { sha: blob[1], size: content.length, content: content.toString("base64"), encoding: "base64" },
        cors,
      );
      return;
    }
    if (path === `${repoPath}/commits`) {
      const date = git(["log", "-1", "--format=%aI"]).toString().trim();
      json(res, 200, [{ commit: { author: { name: user.name, date } } }], cors);
      return;
    }
    json(res, 404, { message: "Not Found" }, cors);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in.invalid");
    const record: StandInRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
    };
    requests.push(record);
    res.once("finish", () => (record.status = res.statusCode));
    if (url.pathname === "/login/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== options.clientId || q.get("redirect_uri") !== callbackUrl()) {
        res
          .writeHead(400, { "content-type": "text/plain" })
          .end("The redirect_uri is not associated with this application.");
        return;
      }
      counter += 1;
      const code = `code-${counter}-${Math.random().toString(36).slice(2)}`;
      codes.set(code, q.get("redirect_uri")!);
      const back = new URL(callbackUrl());
      back.search = new URLSearchParams({ code, state: q.get("state") ?? "" }).toString();
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      void readBody(req).then((body) => {
        record.body = body;
        const issuedFor = codes.get(body.code ?? "");
        const valid =
          body.client_id === options.clientId &&
          body.client_secret === options.clientSecret &&
          issuedFor !== undefined &&
          body.redirect_uri === issuedFor;
        if (!valid) {
          // GitHub answers 200 with an error for a code it does not know or that was used.
          json(res, 200, {
            error: "bad_verification_code",
            error_description: "The code passed is incorrect or expired.",
          });
          return;
        }
        codes.delete(body.code!);
        const token = `gho_standin${counter}${Math.random().toString(36).slice(2)}`;
        tokens.push(token);
        json(res, 200, { access_token: token, token_type: "bearer", scope: "repo" });
      });
      return;
    }
    if (url.pathname.startsWith("/api/")) {
      api(req, res, url.pathname, url.searchParams);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    apiRoot: `${origin}/api`,
    requests,
    tokens,
    user,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
