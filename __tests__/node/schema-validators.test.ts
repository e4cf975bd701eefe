/**
 * @jest-environment node
 *
 * The schemas' validators are kept on disk (compiling them was most of the check's time): one read
 * back reports the same errors as one compiled, and a damaged one is compiled and written anew.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Ajv from "ajv";

const schemaFile = path.resolve(__dirname, "../../data/schemas/service.schema.json");
const schemaText = fs.readFileSync(schemaFile, "utf8");
const schema = JSON.parse(schemaText);
const mistaken = { slug: "Not A Slug", titel: "x", order: "ten", extra: [1] };

let cache: string;
beforeEach(() => {
  cache = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-schema-cache-test-"));
  process.env.CYRUS_SCHEMA_CACHE = cache;
});
afterEach(() => {
  delete process.env.CYRUS_SCHEMA_CACHE;
  fs.rmSync(cache, { recursive: true, force: true });
});

/** validatorFor as a new process has it (nothing kept in memory). */
async function freshValidatorFor() {
  jest.resetModules();
  return (await import("../../src/node/content/schema-validators")).validatorFor;
}

function errorsOf(validate: (data: unknown) => boolean) {
  validate(mistaken);
  return (validate as unknown as { errors: unknown }).errors;
}

test("a validator read back from the cache reports what a compiled one does", async () => {
  const compiled = new Ajv({ allErrors: true, verbose: true, strict: false }).compile(schema);
  (await freshValidatorFor())(schemaText, schema);
  expect(fs.readdirSync(cache)).toHaveLength(1);
  const [file] = fs.readdirSync(cache);
  // Read back, not compiled: a second process finds the file and leaves it as it was.
  const before = fs.statSync(path.join(cache, file!)).mtimeMs;
  const readBack = (await freshValidatorFor())(schemaText, schema);
  expect(fs.statSync(path.join(cache, file!)).mtimeMs).toBe(before);
  expect(errorsOf(readBack)).toEqual(errorsOf(compiled));
  expect(errorsOf(readBack)).not.toEqual([]);
});

test("a damaged cached validator is compiled again and written anew", async () => {
  (await freshValidatorFor())(schemaText, schema);
  const file = path.join(cache, fs.readdirSync(cache)[0]!);
  fs.writeFileSync(file, "module.exports = (");
  const validate = (await freshValidatorFor())(schemaText, schema);
  expect(validate(mistaken)).toBe(false);
  expect(fs.readFileSync(file, "utf8")).toContain("module.exports");
  expect(fs.readFileSync(file, "utf8").length).toBeGreaterThan(1000);
});

test("a cached validator in a folder others may write to is never run: compiled instead", async () => {
  (await freshValidatorFor())(schemaText, schema);
  const file = path.join(cache, fs.readdirSync(cache)[0]!);
  // What another user could plant where the check looks, if the folder let them.
  fs.writeFileSync(file, "globalThis.__planted = true; module.exports = () => true;");
  fs.chmodSync(cache, 0o777);
  const validate = (await freshValidatorFor())(schemaText, schema);
  expect((globalThis as { __planted?: boolean }).__planted).toBeUndefined();
  expect(validate(mistaken)).toBe(false);
  // Nor is anything written into such a folder.
  expect(fs.readFileSync(file, "utf8")).toContain("__planted");
});

test("by default the validators are kept in the project's own .check-cache, never in a shared folder", async () => {
  delete process.env.CYRUS_SCHEMA_CACHE;
  jest.resetModules();
  const { cacheDir } = await import("../../src/node/content/schema-validators");
  // Inside the project's folder, wherever it was cloned (a clone under the system's temporary folder too).
  const inProject = path.join(process.cwd(), ".check-cache", "schema-validators");
  expect(cacheDir()).toBe(inProject);
  // Never in a folder others may write to, as the shared temporary folder the default once was: there
  // anyone could make the folder first and plant code the check would run. The project's folder is
  // not one (the temporary folder itself is).
  expect(fs.statSync(process.cwd()).mode & 0o002).toBe(0);
});
