/**
 * The release's `nginx -t` (RELEASE_NGINX_TEST), run on a copy of the rendered configuration that
 * needs nothing the release user must not have. The server's TLS key is readable by nginx's user
 * alone (every build runs the repository's code and its packages' install scripts as the release
 * user, with the network): the copy names a throw-away key and certificate of its own instead, made
 * with openssl for this test only, in a folder only the release user can enter, and removed after.
 * Its ports below 1024 (which only nginx's unit may bind) become the same port + 20000: `nginx -t`
 * binds every address it listens on, and a port in use is fine for it, a forbidden one is not.
 */
import fs from "node:fs";
import path from "node:path";
import { fillCommand, must, run } from "./exec";
import { runSandboxed, sandboxFor } from "./sandbox";
import type { Settings } from "./settings";

export const TEST_PORT_OFFSET = 20000;

/** The rendered files with the copy's paths: its own folder, key, certificate and ports. */
export function testCopy(text: string, confDir: string, testDir: string, unprivileged: boolean): string {
  let copy = text
    .split(`${confDir}/`)
    .join(`${testDir}/`)
    .replace(/^(\s*ssl_certificate)\s+[^;\s]+;/gm, `$1 ${testDir}/tls.crt;`)
    .replace(/^(\s*ssl_certificate_key)\s+[^;\s]+;/gm, `$1 ${testDir}/tls.key;`);
  if (unprivileged)
    copy = copy.replace(/^(\s*listen\s+(?:\S+:)?)(\d+)(?=[\s;])/gm, (whole, before: string, port: string) =>
      Number(port) < 1024 ? `${before}${Number(port) + TEST_PORT_OFFSET}` : whole,
    );
  return copy;
}

export async function testNginx(dir: string, confDir: string, settings: Settings): Promise<void> {
  const testDir = path.join(dir, ".nginx-test");
  fs.rmSync(testDir, { recursive: true, force: true });
  fs.mkdirSync(testDir, { mode: 0o700 });
  try {
    const files = fs.readdirSync(confDir, { withFileTypes: true }).filter((entry) => entry.isFile());
    let tls = false;
    for (const { name } of files) {
      const text = fs.readFileSync(path.join(confDir, name), "utf8");
      tls ||= /^\s*ssl_certificate(_key)?\s/m.test(text);
      const copy = testCopy(text, confDir, testDir, process.getuid?.() !== 0);
      fs.writeFileSync(path.join(testDir, name), copy, { mode: 0o600 });
    }
    for (const sub of ["logs", "temp"]) fs.mkdirSync(path.join(testDir, sub), { mode: 0o700 });
    if (tls)
      await must(
        "nginx -t",
        run(
          "openssl",
          [
            ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2"],
            ...[
              "-subj",
              "/CN=nginx-test",
              "-keyout",
              path.join(testDir, "tls.key"),
              "-out",
              path.join(testDir, "tls.crt"),
            ],
          ],
          { quiet: true },
        ),
      );
    // In the build's sandbox, as the rendering: the configuration is the new commit's, and nginx -t
    // loads what it names (a module's library, an OpenSSL engine). With the network: nginx -t binds
    // the addresses it listens on, as on the server.
    const command = fillCommand(settings.nginxTest, { release: dir, conf: testDir, id: path.basename(dir) });
    await must(
      "nginx -t",
      runSandboxed("sh", ["-c", command], {
        cwd: dir,
        env: process.env,
        sandbox: { ...sandboxFor(settings.root, dir), network: true },
      }),
    );
  } finally {
    fs.rmSync(testDir, { recursive: true, force: true });
  }
}
