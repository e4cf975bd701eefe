/**
 * deploy/server/nginx-module-check, what cyrus-nginx.service runs as nginx's user before every start
 * and reload: the release's configuration, read with every file it includes, is refused when it
 * loads a module from outside the system's module folder (planted in the main file, in an included
 * one, quoted, relative, through "..", in a file of its own), and otherwise copied whole into
 * nginx's own folder; nginx runs that copy and answers exactly as it does on the release's files.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BROTLI_STATIC_MODULE } from "../../deploy/nginx/render";
import { freePort } from "../support/serve";
import { systemUser, WEB_TEST_USER, type ReleaseUser } from "./support/release-user";
import { NGINX, projectRoot, run, stopProc, waitFor } from "./support/stack";

/** The checkout may sit where nginx's user cannot go (CI's clone under a 700 folder): a copy, as the setup installs it. */
let CHECK = "";
const isRoot = process.getuid!() === 0;
let web: ReleaseUser;
let base: string;
let conf: string;
let runDir: string;
let port: number;
const dirs: string[] = [];

beforeAll(async () => {
  web = systemUser(WEB_TEST_USER);
  base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-module-check-"));
  dirs.push(base);
  fs.chmodSync(base, 0o755);
  const root = path.join(base, "public");
  fs.mkdirSync(path.join(root, "home"), { recursive: true });
  fs.writeFileSync(path.join(root, "404.html"), "<!DOCTYPE html><title>Not found</title>");
  fs.writeFileSync(
    path.join(root, "home", "index.html"),
    `<!DOCTYPE html><title>Home</title><p>${"Chennai ".repeat(60)}</p>`,
  );
  conf = path.join(base, "release", "nginx");
  runDir = path.join(base, "cyrus-web");
  fs.mkdirSync(runDir);
  if (isRoot) fs.chownSync(runDir, web.uid, web.gid);
  port = await freePort();
  const args = ["--standalone", "--root", root, "--out", conf, "--listen", `127.0.0.1:${port}`, "--workers", "1"];
  const dirArgs = ["--run-dir", runDir, "--log-dir", runDir, "--temp-dir", runDir];
  const rendered = spawnSync(process.execPath, ["--import", "tsx", "deploy/nginx/render.ts", ...args, ...dirArgs], {
    cwd: projectRoot,
    encoding: "utf8",
  });
  expect(rendered.status).toBe(0);
  CHECK = path.join(base, "bin", "nginx-module-check");
  fs.mkdirSync(path.dirname(CHECK));
  fs.copyFileSync(path.join(projectRoot, "deploy", "server", "nginx-module-check"), CHECK);
  fs.chmodSync(CHECK, 0o755);
  spawnSync("chmod", ["-R", "a+rX", base]);
});
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The check as the unit runs it: as nginx's user, on the release's cyrus-nginx.conf. */
function check(main = path.join(conf, "cyrus-nginx.conf"), copy = path.join(runDir, "checked.conf")) {
  const result = spawnSync(CHECK, [main, copy], {
    encoding: "utf8",
    ...(isRoot ? { uid: web.uid, gid: web.gid } : {}),
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}`, copy };
}

/** `text` added to a file of the release for one check, then the file as it was. */
function planted(file: string, text: string, where: "start" | "end" = "end") {
  const original = fs.readFileSync(file, "utf8");
  fs.writeFileSync(file, where === "start" ? `${text}\n${original}` : `${original}\n${text}\n`);
  try {
    return check();
  } finally {
    fs.writeFileSync(file, original);
  }
}

test("the real rendered configuration passes; nginx runs the copy and answers as on the release's files", async () => {
  const result = check();
  expect(result).toMatchObject({ code: 0 });
  expect(result.output).toContain("no module from outside /usr/lib/nginx/modules/ /usr/share/nginx/modules/");
  const copy = fs.readFileSync(result.copy, "utf8");
  // Whole: every include inlined, so nginx reads nothing of the release's configuration but this.
  expect(copy).not.toMatch(/^\s*"include"/m);
  expect(copy).toContain('"add_header" "Content-Security-Policy"');
  if (fs.existsSync(BROTLI_STATIC_MODULE)) expect(copy).toContain(`"load_module" "${BROTLI_STATIC_MODULE}";`);
  expect(fs.statSync(result.copy).mode & 0o777).toBe(0o600);
  // Read again, the copy gives itself: the words nginx reads are the words the check read.
  const again = check(result.copy, path.join(runDir, "again.conf"));
  expect(again.code).toBe(0);
  // (Less the check's own notes: where each block and include came from.)
  const words = (file: string) =>
    fs
      .readFileSync(file, "utf8")
      .replace(/^\s*# .*\n/gm, "")
      .replace(/ {2}# \S+:\d+$/gm, "");
  expect(words(again.copy)).toBe(words(result.copy));

  // The same answers, headers and all, from the release's files and from the copy.
  const answers = async (main: string) => {
    const nginx = run(NGINX, ["-p", runDir, "-c", main, "-e", path.join(runDir, "error.log")]);
    try {
      await waitFor(`http://127.0.0.1:${port}/home`, 200, 100);
      const out: string[] = [];
      for (const route of ["/home", "/", "/nope", "/admin/", "/api/email"]) {
        const res = await fetch(`http://127.0.0.1:${port}${route}`, { redirect: "manual" });
        const headers = [...res.headers].filter(([k]) => !["date", "etag", "last-modified"].includes(k));
        out.push(JSON.stringify([route, res.status, headers, (await res.text()).length]));
      }
      return out;
    } finally {
      await stopProc(nginx, "SIGQUIT", 5_000);
    }
  };
  const fromRelease = await answers(path.join(conf, "cyrus-nginx.conf"));
  expect(fromRelease[0]).toContain('"content-security-policy"');
  expect(await answers(result.copy)).toEqual(fromRelease);
});

describe("a module from outside the system's folder is refused, and no copy is written", () => {
  const evil = () => path.join(conf, "evil.so");
  const cases: [string, () => string, () => string, "start" | "end"][] = [
    ["in the main file", () => path.join(conf, "cyrus-nginx.conf"), () => `load_module ${evil()};`, "start"],
    [
      "quoted, in the main file",
      () => path.join(conf, "cyrus-nginx.conf"),
      () => `"load_module" '${evil()}';`,
      "start",
    ],
    [
      "through ..",
      () => path.join(conf, "cyrus-nginx.conf"),
      () => `load_module /usr/lib/nginx/modules/../../../..${evil()};`,
      "start",
    ],
    [
      "relative (to nginx's prefix, its own folder)",
      () => path.join(conf, "cyrus-nginx.conf"),
      () => "load_module evil.so;",
      "start",
    ],
    [
      "split over lines after a comment",
      () => path.join(conf, "cyrus-nginx.conf"),
      () => `# a comment\nload_module\n  ${evil()}\n;`,
      "start",
    ],
    ["in an included file (cyrus.conf)", () => path.join(conf, "cyrus.conf"), () => `load_module ${evil()};`, "end"],
    [
      "in a file of its own, included",
      () => path.join(conf, "cyrus-nginx.conf"),
      () => `include ${path.join(conf, "more.conf")};`,
      "start",
    ],
  ];
  test.each(cases)("%s", (_name, file, text, where) => {
    fs.writeFileSync(path.join(conf, "more.conf"), `load_module ${evil()};\n`, { mode: 0o644 });
    const copy = path.join(runDir, "checked.conf");
    fs.rmSync(copy, { force: true });
    const result = planted(file(), text(), where);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /refused: load_module \S+ in \S+:\d+: modules load from the system's module folder only/,
    );
    expect(fs.existsSync(copy)).toBe(false);
  });

  test("so are a module that runs scripts, an OpenSSL engine, a wildcard include and a file nginx's user cannot read", () => {
    const main = path.join(conf, "cyrus-nginx.conf");
    expect(planted(main, "load_module /usr/lib/nginx/modules/ngx_http_perl_module.so;", "start").output).toContain(
      "a module that runs scripts",
    );
    expect(planted(main, "ssl_engine evil;", "start").output).toContain("ssl_engine");
    expect(planted(main, `include ${conf}/*.conf;`, "start").output).toContain("a wildcard include is not allowed");
    if (isRoot) {
      const secret = path.join(base, "root-only.conf");
      fs.writeFileSync(secret, "# root's\n", { mode: 0o600 });
      expect(planted(main, `include ${secret};`, "start").output).toContain(`cannot read ${secret}`);
    }
  });
});
