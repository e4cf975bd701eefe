import path from "node:path";

export const projectRoot = path.resolve(__dirname, "../..");

// Shared with the benchmark, which imports no tests: the server lives with the tools.
export { freePort, serveBuiltSite, type RunningSite } from "../../tools/serve-built-site";
