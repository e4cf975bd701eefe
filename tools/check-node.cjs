// Stops at once, with one line, when this Node cannot run the project: older than package.json's
// engines, or without node:sqlite (the enquiry store's built-in engine). Without it an older Node
// gets far (a build, a service that starts) and then fails on a TypeError far from the cause.
// Plain CommonJS of the oldest syntax and Node's built-ins alone: it must run on any Node to say so.
// Run first by `npm start`, `npm test` and the service's entries (src/site-service/bin/).
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, so that any Node runs it */
var path = require("path");
var fs = require("fs");

var range = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).engines.node;
var wanted = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range);
if (!wanted) throw new Error('tools/check-node.cjs reads engines.node as ">=major.minor.patch"; it is ' + range);
var have = process.versions.node.split(".").map(Number);
var older = false;
for (var i = 0; i < 3; i += 1) {
  if (have[i] !== Number(wanted[i + 1])) {
    older = have[i] < Number(wanted[i + 1]);
    break;
  }
}
// isBuiltin does not load the module (loading it prints Node's experimental warning).
var moduleApi = require("module");
var sqlite = typeof moduleApi.isBuiltin === "function" && moduleApi.isBuiltin("node:sqlite");
if (older || !sqlite) {
  process.stderr.write(
    "This project needs Node.js " +
      wanted[1] +
      "." +
      wanted[2] +
      " or later (package.json engines " +
      range +
      ", with node:sqlite); this is Node " +
      process.version +
      " (" +
      process.execPath +
      "). " +
      "Run `. .ci/use-node-22.sh` first: it puts Node 22 on PATH for this shell.\n",
  );
  process.exit(1);
}
