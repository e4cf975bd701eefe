/**
 * @jest-environment node
 *
 * What `npm run cms` serves the studio with: its script is revalidated, never downloaded again while
 * unchanged (an editor's reload keeps the browser's copy and compiled code), and the page itself is
 * never stored; a changed script is sent anew.
 */
import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { serveStudio } from "../../admin/scripts/cms";
import { freePort } from "../support/serve";

let root: string;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-studio-server-"));
  fs.writeFileSync(path.join(root, "index.html"), "<!doctype html><title>Studio</title>");
  fs.writeFileSync(path.join(root, "studio.js"), "console.log('studio');");
  const port = await freePort();
  server = await serveStudio(root, "default-src 'self'", port);
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

test("the script is revalidated: 304 for the copy the browser holds, 200 with the new bytes once changed", async () => {
  const first = await fetch(`${origin}/admin/studio.js`);
  expect(first.status).toBe(200);
  expect(first.headers.get("cache-control")).toBe("no-cache");
  expect(first.headers.get("content-security-policy")).toBe("default-src 'self'");
  const etag = first.headers.get("etag");
  expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
  expect(await first.text()).toBe("console.log('studio');");

  const again = await fetch(`${origin}/admin/studio.js`, { headers: { "if-none-match": etag! } });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe("");

  fs.writeFileSync(path.join(root, "studio.js"), "console.log('studio, rebuilt');");
  const changed = await fetch(`${origin}/admin/studio.js`, { headers: { "if-none-match": etag! } });
  expect(changed.status).toBe(200);
  expect(changed.headers.get("etag")).not.toBe(etag);
  expect(await changed.text()).toBe("console.log('studio, rebuilt');");
});

test("the page is never stored, and a request naming its ETag still gets it", async () => {
  const page = await fetch(`${origin}/admin`);
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toBe("no-store");
  expect(page.headers.get("etag")).toBeNull();
  const again = await fetch(`${origin}/admin`, { headers: { "if-none-match": '"anything"' } });
  expect(again.status).toBe(200);
  expect(await again.text()).toContain("<title>Studio</title>");
});
