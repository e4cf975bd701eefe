/**
 * The release's first steps on a release folder that is already there (<root>/build), as
 * deploy/release/release.ts runs them, for release-sandbox.test.ts: run as the release user (the
 * tests may run as root, which the runner refuses). The settings come from the environment.
 *
 *   probe <root> [bwrap]   checkSandbox: prints "sandbox ok", or the error's step and message
 *   steps <root>           the packages (installDependencies) and the content check twice (a step
 *                          after one the commit ran), each in the sandbox: prints a JSON line
 *                          {dependencies} or {step, message}
 *   nginx-test <root>      the nginx -t step (RELEASE_NGINX_TEST) on a rendered folder of build/
 */
import fs from "node:fs";
import path from "node:path";
import { checkContent } from "../../../deploy/release/build";
import { installDependencies } from "../../../deploy/release/dependencies";
import { StepError } from "../../../deploy/release/exec";
import { paths } from "../../../deploy/release/layout";
import { testNginx } from "../../../deploy/release/nginx-test";
import { checkSandbox, makeScratch } from "../../../deploy/release/sandbox";
import type { Settings } from "../../../deploy/release/settings";

async function main(command: string | undefined, root: string, bwrap?: string): Promise<number> {
  const p = paths(path.resolve(root));
  if (command === "probe") {
    await checkSandbox(p.buildTmp, [p.shared, p.releases], bwrap);
    console.log("sandbox ok");
    return 0;
  }
  if (command === "steps") {
    makeScratch(p.buildTmp);
    // The runner's own process id, for the commit's attempt to signal it.
    const env = { ...process.env, NODE_ENV: "production", RUNNER_PID: String(process.pid) };
    const dependencies = await installDependencies(p.build, {
      root: path.resolve(root),
      sources: [],
      npmCi: process.env.RELEASE_NPM_CI ?? "npm ci",
      env,
      scratch: p.buildTmp,
    });
    await checkContent(p.build, env, path.resolve(root));
    // A second step in a sandbox of its own, as the build follows the content check.
    await checkContent(p.build, env, path.resolve(root));
    console.log(JSON.stringify({ dependencies }));
    return 0;
  }
  if (command === "nginx-test") {
    makeScratch(p.buildTmp);
    const conf = path.join(p.build, "nginx");
    fs.mkdirSync(conf, { recursive: true });
    fs.writeFileSync(path.join(conf, "nginx.conf"), "events {}\n");
    await testNginx(p.build, conf, { nginxTest: process.env.RELEASE_NGINX_TEST, root: path.resolve(root) } as Settings);
    console.log(JSON.stringify({ nginxTest: "passed" }));
    return 0;
  }
  console.error("usage: sandbox-steps.ts probe <root> [bwrap] | steps <root> | nginx-test <root>");
  return 2;
}

main(process.argv[2], process.argv[3] ?? "", process.argv[4]).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    if (error instanceof StepError) console.log(JSON.stringify({ step: error.step, message: error.message }));
    else console.error(error);
    process.exitCode = 1;
  },
);
