import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import standaloneCode from "ajv/dist/standalone";
import ajvPackage from "ajv/package.json";
import * as equal from "ajv/dist/runtime/equal";
import * as ucs2length from "ajv/dist/runtime/ucs2length";
import * as uri from "ajv/dist/runtime/uri";
import type { JsonSchema } from "./graphql-types";

import { AJV_OPTIONS as OPTIONS } from "./schema-options";
/**
 * What the code Ajv writes may require (its runtime helpers): given as imported here, wherever this file is bundled.
 */
const RUNTIME: Record<string, unknown> = {
  "ajv/dist/runtime/equal": equal,
  "ajv/dist/runtime/ucs2length": ucs2length,
  "ajv/dist/runtime/uri": uri,
};
const runtime = (name: string) => {
  if (!(name in RUNTIME)) throw new Error(`${name} is not one of Ajv's runtime helpers known here`);
  return RUNTIME[name];
};

/**
 * Compiling the twelve schemas is most of what the check costs (about 0.3 s of CPU, more than reading
 * and checking every content file): the code Ajv writes for a schema is kept on disk, under the
 * schema's text, and read back in a few milliseconds the next time. In the project's own .check-cache/ (the
 * folder the check runs in: npm, Gatsby and Jest all run there), never in a folder shared with other
 * users: the code in it is run, so whoever could write there could run code as whoever checks. Set
 * CYRUS_SCHEMA_CACHE to another folder, or to "off".
 */
export function cacheDir(): string | undefined {
  const set = process.env.CYRUS_SCHEMA_CACHE;
  if (set === "off") return undefined;
  return set || path.join(process.cwd(), ".check-cache", "schema-validators");
}

/** Only a file of this user's, in a folder of this user's that no one else may write to, is run. */
function ownedAndPrivate(dir: string, file: string): boolean {
  const uid = os.userInfo().uid;
  try {
    const folder = fs.statSync(dir);
    const entry = fs.lstatSync(file);
    return folder.uid === uid && (folder.mode & 0o022) === 0 && entry.isFile() && entry.uid === uid;
  } catch {
    return false;
  }
}

/** Once per text in a process: checkFileText runs on every change `gatsby develop` sees. */
const inMemory = new Map<string, ValidateFunction>();

/** The validator of a schema (its text, and that text parsed), compiled once per version of it. */
export function validatorFor(schemaText: string, schema: JsonSchema): ValidateFunction {
  let validate = inMemory.get(schemaText);
  if (!validate) {
    // One per text: an edited schema leaves its previous version behind (a few, in a session).
    validate = fromDisk(schemaText, schema);
    inMemory.set(schemaText, validate);
  }
  return validate;
}

function fromDisk(schemaText: string, schema: JsonSchema): ValidateFunction {
  const dir = cacheDir();
  if (!dir) return new Ajv(OPTIONS).compile(schema);
  const key = crypto.createHash("sha256").update(`${ajvPackage.version}\0${JSON.stringify(OPTIONS)}\0${schemaText}`);
  const file = path.join(dir, `${key.digest("hex").slice(0, 32)}.cjs`);
  const cached = ownedAndPrivate(dir, file) ? load(file) : undefined;
  if (cached) return cached;
  const ajv = new Ajv({ ...OPTIONS, code: { source: true } });
  const validate = ajv.compile(schema);
  store(dir, file, standaloneCode(ajv, validate));
  return validate;
}

/** The module Ajv wrote, run as Node runs a CommonJS file; its `require`s are Ajv's runtime helpers. */
function load(file: string): ValidateFunction | undefined {
  let code: string;
  try {
    code = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const module = { exports: {} as unknown };
    new Function("require", "module", "exports", code)(runtime, module, module.exports);
    return typeof module.exports === "function" ? (module.exports as ValidateFunction) : undefined;
  } catch {
    return undefined; // damaged, or needing a helper not given: compiled again and written anew
  }
}

/** Written whole or not at all (another check may read it meanwhile); a cache that cannot be written is no cache. */
function store(dir: string, file: string, code: string): void {
  try {
    // Only this user's: the code in it is run.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const folder = fs.statSync(dir);
    if (folder.uid !== os.userInfo().uid || (folder.mode & 0o022) !== 0) return;
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, file);
  } catch {
    // read-only or full disk: the next check compiles again
  }
}
