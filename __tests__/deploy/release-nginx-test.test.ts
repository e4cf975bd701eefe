/**
 * The release's `nginx -t` step (deploy/release/nginx-test.ts) with a production-like TLS
 * configuration (ports 443 and 80, the server's key and certificate), run as the release user: the
 * key is readable by nginx's user alone (as deploy/server/setup leaves it), so the release user
 * cannot read it (EACCES), and the step still passes, on a copy with a throw-away key of its own;
 * a wrong configuration still fails it, and nothing of the test is left behind.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSync } from "esbuild";
import { TEST_PORT_OFFSET, testCopy } from "../../deploy/release/nginx-test";
import { releaseUser, systemUser, WEB_TEST_USER, type ReleaseUser } from "./support/release-user";
import { NGINX, projectRoot } from "./support/stack";

const isRoot = process.getuid!() === 0;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test("the test copy names its own key and certificate, its own folder, and ports a user may bind", () => {
  const text = [
    "    listen 443 ssl;",
    "    listen [::]:443 ssl;",
    "    listen 127.0.0.1:8443 ssl;",
    "    ssl_certificate /etc/cyrus/tls/fullchain.pem;",
    "    ssl_certificate_key /etc/cyrus/tls/privkey.pem;",
    "    include /srv/cyrus/releases/1/nginx/security-headers.conf;",
    "    root /srv/cyrus/releases/1/public;",
    "    listen 80;",
  ].join("\n");
  expect(testCopy(text, "/srv/cyrus/releases/1/nginx", "/t", true).split("\n")).toEqual([
    `    listen ${443 + TEST_PORT_OFFSET} ssl;`,
    `    listen [::]:${443 + TEST_PORT_OFFSET} ssl;`,
    "    listen 127.0.0.1:8443 ssl;",
    "    ssl_certificate /t/tls.crt;",
    "    ssl_certificate_key /t/tls.key;",
    "    include /t/security-headers.conf;",
    "    root /srv/cyrus/releases/1/public;",
    `    listen ${80 + TEST_PORT_OFFSET};`,
  ]);
  // Run by root (tests), the ports stay.
  expect(testCopy(text, "/srv/cyrus/releases/1/nginx", "/t", false)).toContain("    listen 443 ssl;");
});

(isRoot ? describe : describe.skip)(
  "as the release user, with the server's TLS key readable by nginx's user alone",
  () => {
    let user: ReleaseUser;
    let base: string;
    let release: string;
    let key: string;
    let node: string;
    let step: string;
    let releaseRoot: string;
    beforeAll(() => {
      user = releaseUser();
      const web = systemUser(WEB_TEST_USER);
      base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-release-nginx-test-"));
      dirs.push(base);
      fs.chmodSync(base, 0o755);
      // The server's key and certificate, as the setup leaves them: root:cyrus-web, 640 in a 750 folder.
      const tls = path.join(base, "tls");
      fs.mkdirSync(tls, { mode: 0o750 });
      key = path.join(tls, "privkey.pem");
      const cert = path.join(tls, "fullchain.pem");
      const made = spawnSync("openssl", [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2"],
        ...["-subj", "/CN=www.example.com", "-keyout", key, "-out", cert],
      ]);
      expect(made.status).toBe(0);
      fs.chownSync(tls, 0, web.gid);
      fs.chownSync(key, 0, web.gid);
      fs.chmodSync(key, 0o640);
      // A release's rendered configuration, production-like, owned by the release user.
      release = path.join(base, "release");
      fs.mkdirSync(path.join(release, "public", "home"), { recursive: true });
      fs.writeFileSync(path.join(release, "public", "404.html"), "<!DOCTYPE html><title>Not found</title>");
      fs.writeFileSync(path.join(release, "public", "home", "index.html"), "<!DOCTYPE html><title>Home</title>");
      const rendered = spawnSync(
        process.execPath,
        [
          ...["--import", "tsx", "deploy/nginx/render.ts", "--standalone", "--root", path.join(release, "public")],
          ...["--out", path.join(release, "nginx"), "--listen", "443", "--listen", "[::]:443", "--http-redirect", "80"],
          ...["--server-name", "www.example.com", "--tls-cert", cert, "--tls-key", key],
        ],
        { cwd: projectRoot, encoding: "utf8" },
      );
      expect(rendered.stderr).toBe("");
      spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, release]);
      // The release root the step runs for: its sandbox's private folder is made there.
      releaseRoot = path.join(base, "root");
      fs.mkdirSync(releaseRoot);
      spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, releaseRoot]);
      // The step as the release runs it, bundled for a user who cannot read this checkout, with a Node of its own.
      const bin = path.join(base, "bin");
      fs.mkdirSync(bin);
      node = path.join(bin, "node");
      fs.copyFileSync(process.execPath, node);
      fs.chmodSync(node, 0o755);
      const entry = path.join(base, "step.ts");
      fs.writeFileSync(
        entry,
        [
          `import { testNginx } from ${JSON.stringify(path.join(projectRoot, "deploy/release/nginx-test"))};`,
          `import { DEFAULTS } from ${JSON.stringify(path.join(projectRoot, "deploy/release/settings"))};`,
          `import { paths } from ${JSON.stringify(path.join(projectRoot, "deploy/release/layout"))};`,
          `import { makeScratch } from ${JSON.stringify(path.join(projectRoot, "deploy/release/sandbox"))};`,
          "const [dir, conf, root] = process.argv.slice(2) as [string, string, string];",
          "// The build sandbox's private folder, which nginx -t runs in as the build does (a release makes it first).",
          "makeScratch(paths(root).buildTmp);",
          "testNginx(dir, conf, { nginxTest: DEFAULTS.RELEASE_NGINX_TEST, root } as never).then(",
          '  () => console.log("nginx -t passed"),',
          "  (error: Error) => { console.error(error.message); process.exit(1); },",
          ");",
        ].join("\n"),
      );
      step = path.join(bin, "step.js");
      buildSync({ entryPoints: [entry], bundle: true, platform: "node", outfile: step, logLevel: "silent" });
      fs.chmodSync(step, 0o644);
    });

    const asRelease = (command: string, args: string[]) =>
      spawnSync(command, args, {
        encoding: "utf8",
        uid: user.uid,
        gid: user.gid,
        env: { PATH: "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", HOME: base },
      });
    const runStep = () => asRelease(node, [step, release, path.join(release, "nginx"), releaseRoot]);

    test("the key is EACCES to the release user; the step passes without it, and leaves nothing behind", () => {
      const read = asRelease("cat", [key]);
      expect(read.status).not.toBe(0);
      expect(read.stderr).toContain("Permission denied");
      expect(fs.readFileSync(path.join(release, "nginx", "cyrus.conf"), "utf8")).toContain(
        `ssl_certificate_key ${key};`,
      );
      // What the release ran before: nginx -t on the rendered files, as the release user, fails on the
      // server's TLS files (their folder is nginx's user's).
      const conf = path.join(release, "nginx");
      const direct = asRelease(NGINX, [
        "-t",
        "-q",
        "-p",
        conf,
        "-c",
        "nginx.conf",
        "-e",
        path.join(conf, "logs", "error.log"),
      ]);
      expect(direct.status).not.toBe(0);
      expect(direct.stderr).toMatch(/cannot load certificate "[^"]*\/tls\/fullchain\.pem".*Permission denied/s);

      const result = runStep();
      expect({ code: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
        code: 0,
        output: "nginx -t passed",
      });
      expect(fs.existsSync(path.join(release, ".nginx-test"))).toBe(false);
    });

    test("a wrong configuration still fails the step", () => {
      const file = path.join(release, "nginx", "cyrus.conf");
      const original = fs.readFileSync(file, "utf8");
      fs.writeFileSync(file, `${original}\nno_such_directive on;\n`);
      try {
        const result = runStep();
        expect(result.status).toBe(1);
        expect(`${result.stdout}${result.stderr}`).toContain('unknown directive "no_such_directive"');
        expect(fs.existsSync(path.join(release, ".nginx-test"))).toBe(false);
      } finally {
        fs.writeFileSync(file, original);
      }
    });
  },
);
