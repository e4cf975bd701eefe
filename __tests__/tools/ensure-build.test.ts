/**
 * @jest-environment node
 *
 * When the test commands build the site again (tools/ensure-build.ts): only when what the build reads
 * changed since public/ was built, not when a test wrote a file into data/ and took it out again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { recordBuild, staleReason } from "../../tools/ensure-build";

let root: string;
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
const env = { PATH: "/usr/bin" };

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-ensure-build-"));
  write("data/site.yaml", "name: Cyrus\n");
  write("src/pages/home.tsx", "export default 1;\n");
  write("package.json", "{}\n");
  write("public/index.html", "<!DOCTYPE html>\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test("a public/ recorded after its build is up to date, even after a file came and went in data/", () => {
  recordBuild(root, env);
  expect(staleReason(root, env)).toBeUndefined();

  write("data/pages/scratch.yaml", "title: x\n");
  fs.rmSync(path.join(root, "data/pages/scratch.yaml"));
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(path.join(root, "data/site.yaml"), later, later);
  expect(staleReason(root, env)).toBeUndefined();
});

test("a changed, added or removed source, or another GATSBY_ setting, makes public/ out of date", () => {
  recordBuild(root, env);
  write("data/site.yaml", "name: Cyrus Research\n");
  expect(staleReason(root, env)).toBe("the sources changed since public/ was built");

  recordBuild(root, env);
  write("src/components/new.tsx", "export {};\n");
  expect(staleReason(root, env)).toBe("the sources changed since public/ was built");

  recordBuild(root, env);
  fs.rmSync(path.join(root, "src/components/new.tsx"));
  expect(staleReason(root, env)).toBe("the sources changed since public/ was built");

  // The inbox's pages (src/inbox/, bundled in onPreBuild) are the build's too.
  write("src/inbox/app.tsx", "export {};\n");
  recordBuild(root, env);
  write("src/inbox/app.tsx", "export const changed = 1;\n");
  expect(staleReason(root, env)).toBe("the sources changed since public/ was built");

  recordBuild(root, env);
  expect(staleReason(root, { ...env, GATSBY_ENQUIRY_API: "https://backend.example.org" })).toBe(
    "the sources changed since public/ was built",
  );
});

test("the types the build writes and a plugin's tests are not sources", () => {
  recordBuild(root, env);
  write("src/gatsby-types.d.ts", "declare namespace Queries {}\n");
  write("plugins/p/__tests__/p.test.ts", "test.todo('x');\n");
  expect(staleReason(root, env)).toBeUndefined();
});

test("no build, or a build with no record older than a source, is built (again)", () => {
  fs.rmSync(path.join(root, "public"), { recursive: true });
  expect(staleReason(root, env)).toBe("public/ holds no build");

  write("public/index.html", "<!DOCTYPE html>\n");
  const earlier = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(root, "public/index.html"), earlier, earlier);
  expect(staleReason(root, env)).toBe("a source is newer than public/");
});
