/**
 * The lint rules that keep the enquiry's parts apart (eslint.config.mjs): outside the site's
 * service, only its public entry may be imported; the shared definition imports nothing of Node,
 * Gatsby, React or the rest of the project; the service imports no Gatsby, React or component. Each case
 * is linted as if it were a file at that path (ESLint's own API, in a child process: the config is
 * an ES module, which Jest's module system does not load).
 */
import { execFileSync } from "node:child_process";
import { projectRoot } from "./support/harness";

const cases: Array<[file: string, code: string, restricted: boolean]> = [
  ["src/api/other.ts", 'import { x } from "../site-service/enquiries/core/validate";', true],
  ["src/pages/contact.tsx", 'import { x } from "../site-service/enquiries/store/store";', true],
  ["gatsby-node.ts", 'import { x } from "./src/site-service/enquiries/http/adapter";', true],
  ["__tests__/deploy/x.test.ts", 'import { x } from "../../src/site-service/service/server";', true],
  ["src/api/other.ts", 'import { x } from "../site-service";', false],
  ["src/api/other.ts", 'import { x } from "../site-service/index";', false],
  // The Gatsby Function's own entry (the same receiving, without the rest of the service), and only it.
  ["src/api/email.ts", 'import { x } from "../site-service/function-entry";', false],
  ["src/api/other.ts", 'import { x } from "../site-service/function-entry-other";', true],
  ["src/site-service/service/other.ts", 'import { x } from "../enquiries/core/validate";', false],
  ["__tests__/site-service/x.test.ts", 'import { x } from "../../src/site-service/enquiries/core/validate";', false],
  ["src/enquiry-contract/other.ts", 'import { createHash } from "node:crypto";', true],
  ["src/enquiry-contract/other.ts", 'import { x } from "../site-service";', true],
  ["src/enquiry-contract/other.ts", 'import { useState } from "react";', true],
  ["src/enquiry-contract/other.ts", 'import { x } from "./enquiry-fields";', false],
  ["src/site-service/enquiries/core/other.ts", 'import { Link } from "gatsby";', true],
  [
    "src/site-service/enquiries/core/other.ts",
    'import { x } from "../../../components/enquiry-form/send-enquiry";',
    true,
  ],
  ["src/site-service/enquiries/core/other.ts", 'import { x } from "../../../enquiry-contract/enquiry-fields";', false],
];

const script = `
import { ESLint } from "eslint";
const eslint = new ESLint();
const cases = JSON.parse(process.argv[1]);
const out = [];
for (const [filePath, code] of cases) {
  const [result] = await eslint.lintText(code + "\\nexport const y = x;\\n", { filePath });
  out.push(result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message));
}
console.log(JSON.stringify(out));
`;

test("imports across the enquiry's parts are refused where they must be, allowed where they may be", () => {
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(cases)], {
    cwd: projectRoot,
    encoding: "utf8",
  });
  const messages = JSON.parse(output) as string[][];
  const outcome = cases.map(([file, code], i) => [file, code, messages[i]!.length > 0]);
  expect(outcome).toEqual(cases.map(([file, code, restricted]) => [file, code, restricted]));
  expect(messages[0]![0]).toContain("public entry");
}, 60_000);
