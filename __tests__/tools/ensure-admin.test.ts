/**
 * @jest-environment node
 *
 * The studio's packages are installed when admin/node_modules does not hold what admin's lockfile
 * asks for, and left alone when it does (a second `npm test` installs nothing).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { adminInstallNeeded } from "../../tools/ensure-admin";

let dir: string;
const lock = {
  packages: {
    "": { name: "cyrus-admin" },
    "node_modules/react": { version: "19.3.1" },
    "node_modules/@esbuild/darwin-arm64": { version: "0.28.2", optional: true },
  },
};
const write = (file: string, value: unknown) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), JSON.stringify(value));
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-ensure-admin-"));
  write("package-lock.json", lock);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("a fresh clone: not installed", () => {
  expect(adminInstallNeeded(dir)).toBe("admin/node_modules is not installed");
});

test("installed as the lockfile says (another platform's optional binary absent): nothing to do", () => {
  write("node_modules/.package-lock.json", { packages: { "node_modules/react": { version: "19.3.1" } } });
  expect(adminInstallNeeded(dir)).toBeUndefined();
});

test("a package missing or at another version than the lockfile's: install", () => {
  write("node_modules/.package-lock.json", { packages: {} });
  expect(adminInstallNeeded(dir)).toBe("node_modules/react is missing");
  write("node_modules/.package-lock.json", { packages: { "node_modules/react": { version: "19.2.0" } } });
  expect(adminInstallNeeded(dir)).toBe("node_modules/react is 19.2.0, the lockfile asks for 19.3.1");
});

test("the studio's packages as installed here are what admin's lockfile asks for", () => {
  expect(adminInstallNeeded(path.resolve(__dirname, "../../admin"))).toBeUndefined();
});
