/**
 * gatsby-plugin-cyrus-admin: the editing studio (admin/, docs/editing-studio.md) built into
 * public/admin with every build of the site, by its own package's esbuild and React, never by the
 * site's webpack: none of its files is in a page's bundle. The build starts with Gatsby's and runs
 * beside it (esbuild works in its own process); the site's build waits for it before it ends, so a
 * failure stops the build (and deploy/precompress.ts, run on the finished build, covers its files).
 * The page itself is static/admin/index.html, which Gatsby copies.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import type { GatsbyNode } from "gatsby";

interface Outcome {
  code: number | null;
  output: string;
}

let running: Promise<Outcome> | undefined;

function buildStudio(): Promise<Outcome> {
  const root = process.cwd();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(root, "admin/scripts/build.ts"), "--out", path.join(root, "public/admin")],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}` }));
    child.on("close", (code) => resolve({ code, output: output.trim() }));
  });
}

export const onPreBootstrap: GatsbyNode["onPreBootstrap"] = ({ reporter }) => {
  running = buildStudio();
  // `gatsby develop` has no onPostBuild: report there when it is done.
  if (process.env.gatsby_executing_command === "develop") {
    void running.then(({ code, output }) => (code === 0 ? reporter.info(output) : reporter.error(output)));
  }
};

export const onPostBuild: GatsbyNode["onPostBuild"] = async ({ reporter }) => {
  const { code, output } = await (running ?? buildStudio());
  if (code !== 0) reporter.panicOnBuild(output || "The editing studio could not be built");
  else reporter.info(output);
};
