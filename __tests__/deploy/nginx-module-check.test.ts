/**
 * deploy/server/nginx-module-check, what cyrus-nginx.service runs as nginx's user before every start
 * and reload: the release's configuration, read with every file it includes, passes only when it
 * holds the directives and modules the site's own configuration uses (every option of render.ts
 * passes), and is otherwise refused: a module from outside that list (planted in the main file, in
 * an included one, quoted, relative, through "..", in a file of its own), a directive of another
 * module, and a library named as an OpenSSL engine or store, in any *_ssl_certificate_key, in
 * ssl_certificate, or through a variable a map sets. A canary library, planted by the release user
 * and compiled here, shows each time that nginx keeps the configuration it runs and that the library
 * never loads, where nginx given the same words does load it (at `nginx -t`, or at the first TLS
 * handshake); and that the unit's NoExecPaths= would stop it even past the check. A passed check
 * copies the configuration whole into nginx's own folder; nginx runs that copy and answers exactly
 * as it does on the release's files.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { BROTLI_STATIC_MODULE } from "../../deploy/nginx/render";
import { freePort } from "../support/serve";
import { chownTree, releaseUser, systemUser, WEB_TEST_USER, type ReleaseUser } from "./support/release-user";
import { NGINX, projectRoot, run, stopProc, waitFor, type Proc } from "./support/stack";

/**
 * The checkout may sit where nginx's user cannot go (CI's clone under a 700 folder): a copy, as the setup installs it.
 */
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
  expect(result.output).toContain(
    `only the site's directives and modules (${BROTLI_STATIC_MODULE}), no OpenSSL engine or store, no variable naming a key; copy in ${result.copy}`,
  );
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

test("every option of render.ts gives a configuration the check passes (TLS, redirect, instances, status, limits, brotli)", () => {
  // What a server renders (docs/server-reference.md) and what release-nginx-test.test.ts renders, and the rest.
  const out = path.join(base, "every-option");
  const variants = [
    [
      ...["--listen", "443", "--listen", "[::]:443", "--http-redirect", "80", "--server-name", "www.example.com"],
      ...["--tls-cert", "/etc/cyrus/tls/fullchain.pem", "--tls-key", "/etc/cyrus/tls/privkey.pem"],
      ...["--upstream", "127.0.0.1:9101,127.0.0.1:9102", "--release-status", "/srv/cyrus/shared/release-status.json"],
      ...["--api-rate", "5r/s", "--api-burst", "3", "--api-conn-limit", "2", "--conn-limit", "9", "--api-timeout", "7"],
      ...["--brotli", "on", "--workers", "2"],
    ],
    ["--brotli", "off", "--no-access-log", "--daemon", "--upstream", "unix:/run/cyrus/enquiry.sock"],
  ];
  for (const options of variants) {
    const rendered = spawnSync(
      process.execPath,
      [
        ...["--import", "tsx", "deploy/nginx/render.ts", "--standalone", "--root", path.join(base, "public")],
        ...["--out", out, "--run-dir", runDir, "--log-dir", runDir, "--temp-dir", runDir, ...options],
      ],
      { cwd: projectRoot, encoding: "utf8" },
    );
    expect(rendered.status).toBe(0);
    spawnSync("chmod", ["-R", "a+rX", out]);
    for (const main of ["cyrus-nginx.conf", "nginx.conf"]) {
      const result = check(path.join(out, main), path.join(runDir, "every-option.conf"));
      expect({ options, main, ...result }).toMatchObject({ options, main, code: 0 });
      if (options.includes("--tls-key"))
        expect(fs.readFileSync(result.copy, "utf8")).toContain('"ssl_certificate_key" "/etc/cyrus/tls/privkey.pem";');
    }
  }
});

describe("a module other than the site's own is refused, and no copy is written", () => {
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
    expect(result.output).toMatch(/refused: load_module \S+ in \S+:\d+: not a module the site loads \(\S+\)$/m);
    expect(fs.existsSync(copy)).toBe(false);
  });

  test("so are another system module, a directive the site does not use, a wildcard include and a file nginx's user cannot read", () => {
    const main = path.join(conf, "cyrus-nginx.conf");
    // Debian's own modules too (Perl runs scripts the configuration names), and one installed later.
    for (const module of ["ngx_http_perl_module.so", "ngx_http_image_filter_module.so", "ngx_stream_module.so"])
      expect(planted(main, `load_module /usr/lib/nginx/modules/${module};`, "start").output).toContain(
        `refused: load_module /usr/lib/nginx/modules/${module} in ${main}:1: not a module the site loads`,
      );
    for (const directive of ["ssl_engine evil;", "env OPENSSL_CONF=/tmp/evil.cnf;", "stream { }"])
      expect(planted(main, directive, "start").output).toContain(
        `refused: ${directive.split(" ")[0]} in ${main}:1: not a directive of the site's configuration`,
      );
    // A directive the site uses, in a form it does not write.
    expect(planted(main, "pid nginx.pid;", "start").output).toContain(
      `refused: pid in ${main}:1: arguments of a form the site's configuration does not write ("nginx.pid")`,
    );
    expect(planted(main, `include ${conf}/*.conf;`, "start").output).toContain("a wildcard include is not allowed");
    if (isRoot) {
      const secret = path.join(base, "root-only.conf");
      fs.writeFileSync(secret, "# root's\n", { mode: 0o600 });
      expect(planted(main, `include ${secret};`, "start").output).toContain(`cannot read ${secret}`);
    }
  });
});

const hasGcc = spawnSync("gcc", ["--version"]).status === 0;
const canUnshare = isRoot && spawnSync("unshare", ["-m", "--propagation", "private", "true"]).status === 0;
const INSTALLED_CHECK = "/usr/local/lib/cyrus/nginx-module-check";

/** Whether something accepts connections on the port (a server of a planted configuration). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** One TLS handshake (it may fail: the server's key is the canary), then the connection closed. */
function handshake(port: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: "127.0.0.1", port, servername: "www.example.com", rejectUnauthorized: false });
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.once("secureConnect", done);
    socket.once("error", done);
    socket.setTimeout(3_000, done);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

(hasGcc ? describe : describe.skip)(
  `a library named as an OpenSSL engine, planted by the release user: refused, nginx keeps its configuration, the library never loads${hasGcc ? "" : " (skipped: no gcc to build the canary library)"}`,
  () => {
    let release: ReleaseUser;
    /**
     * The canary (support/canary-library.c), built into the release's nginx folder, and the file it writes when loaded.
     */
    let library: string;
    let marker: string;
    let cert: string;
    let key: string;
    let extraPort: number;
    let tlsPort: number;
    /**
     * The unit's nginx: ExecStartPre= (the check, writing the copy) then ExecStart= (nginx on the copy), as nginx's
     * user.
     */
    let unit: Proc;
    let unitCopy: string;
    const main = () => path.join(conf, "cyrus-nginx.conf");
    const asWeb = () => (isRoot ? { uid: web.uid, gid: web.gid } : {});

    beforeAll(async () => {
      release = releaseUser();
      const markerDir = path.join(base, "marker");
      fs.mkdirSync(markerDir);
      chownTree(markerDir, web);
      marker = path.join(markerDir, "loaded");
      library = path.join(conf, "canary.so");
      const built = spawnSync(
        "gcc",
        [
          ...["-shared", "-fPIC", "-O2", `-DMARKER=${JSON.stringify(marker)}`, "-o", library],
          path.join(projectRoot, "__tests__", "deploy", "support", "canary-library.c"),
        ],
        { encoding: "utf8" },
      );
      expect(built.stderr).toBe("");
      // A certificate and key of the release's own, for the planted servers (the canary is the key).
      cert = path.join(conf, "planted.crt");
      key = path.join(conf, "planted.key");
      const made = spawnSync("openssl", [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2"],
        ...["-subj", "/CN=www.example.com", "-keyout", key, "-out", cert],
      ]);
      expect(made.status).toBe(0);
      fs.chmodSync(key, 0o644);
      // Everything in the release's nginx folder is the release user's, as on a server.
      chownTree(conf, release);
      extraPort = await freePort();
      tlsPort = await freePort();
      // The unit's own folders are nginx's user's (the first test ran nginx as root in them).
      chownTree(runDir, web);
      unitCopy = path.join(runDir, "cyrus-nginx.conf");
      expect(check(main(), unitCopy).code).toBe(0);
      unit = run(NGINX, ["-p", runDir, "-c", unitCopy, "-e", path.join(runDir, "error.log")], {
        ...asWeb(),
        cwd: base,
      });
      await waitFor(`http://127.0.0.1:${port}/home`, 200, 100, () => unit.child.exitCode === null).catch(
        (error: Error) => {
          throw new Error(`${error.message}\n${unit.output()}`);
        },
      );
    });
    afterAll(async () => {
      await stopProc(unit, "SIGQUIT", 5_000);
    });

    /**
     * ExecReload= of cyrus-nginx.service: the check, then the HUP only if it passed (systemd runs the next line only
     * then).
     */
    const reload = () => {
      const result = check(main(), unitCopy);
      if (result.code === 0) process.kill(unit.child.pid!, "SIGHUP");
      return result;
    };

    /** `text` appended to a file of the release by the release user, the reload run, then the file as it was. */
    const plantedByRelease = (file: string, text: string) => {
      const original = fs.readFileSync(file, "utf8");
      const wrote = spawnSync("/bin/sh", ["-c", 'cat >> "$1"', "sh", file], {
        input: `\n${text}\n`,
        encoding: "utf8",
        ...(isRoot ? { uid: release.uid, gid: release.gid } : {}),
      });
      expect(wrote.status).toBe(0);
      try {
        return reload();
      } finally {
        fs.writeFileSync(file, original);
      }
    };

    const engine = () => `engine:${library}:key`;
    const location = (prefix: string, pass: string) =>
      `server {\n    listen 127.0.0.1:${extraPort};\n    location / {\n        ${prefix}_pass ${pass}://127.0.0.1:${port};\n` +
      `        ${prefix}_ssl_certificate ${cert};\n        ${prefix}_ssl_certificate_key ${engine()};\n    }\n}`;
    const tlsServer = (lines: string) =>
      `server {\n    listen 127.0.0.1:${tlsPort} ssl;\n    server_name www.example.com;\n${lines}\n}`;
    const ENGINE =
      /refused: "engine:\S+canary\.so:key" in \S+:\d+: an OpenSSL engine or store is a library loaded by name/;
    const VARIABLE = (directive: string) =>
      new RegExp(
        `refused: ${directive} in \\S+:\\d+: a variable in a directive that names a key, certificate or password file`,
      );
    /**
     * Each form: where the release plants it (in http {}: the end of cyrus.conf; else the end of the
     * main file), what the check says, and when nginx given it loads the library, where it does.
     */
    const forms: {
      name: string;
      http: boolean;
      text: () => string;
      refused: RegExp;
      loads?: "nginx -t" | "handshake";
    }[] = [
      {
        name: "proxy_ssl_certificate_key engine:…",
        http: true,
        text: () => location("proxy", "https"),
        refused: ENGINE,
        loads: "nginx -t",
      },
      {
        name: "grpc_ssl_certificate_key engine:…",
        http: true,
        text: () => location("grpc", "grpcs"),
        refused: ENGINE,
        loads: "nginx -t",
      },
      {
        name: "uwsgi_ssl_certificate_key engine:…",
        http: true,
        text: () => location("uwsgi", "suwsgi"),
        refused: ENGINE,
        loads: "nginx -t",
      },
      {
        name: "stream's proxy_ssl_certificate_key engine:…",
        http: false,
        text: () =>
          `stream {\n    server {\n        listen 127.0.0.1:${extraPort};\n        proxy_pass 127.0.0.1:${port};\n` +
          `        proxy_ssl on;\n        proxy_ssl_certificate ${cert};\n        proxy_ssl_certificate_key ${engine()};\n    }\n}`,
        refused: ENGINE,
      },
      {
        name: "ssl_certificate_key engine:…",
        http: true,
        text: () => tlsServer(`    ssl_certificate ${cert};\n    ssl_certificate_key ${engine()};`),
        refused: ENGINE,
        loads: "nginx -t",
      },
      {
        name: "ssl_certificate engine:…",
        http: true,
        text: () => tlsServer(`    ssl_certificate ${engine()};\n    ssl_certificate_key ${key};`),
        refused: ENGINE,
      },
      {
        name: "ssl_certificate_key store:…",
        http: true,
        text: () => tlsServer(`    ssl_certificate ${cert};\n    ssl_certificate_key "store:file:${library}";`),
        refused: /refused: "store:file:\S+canary\.so" in \S+:\d+: an OpenSSL engine or store/,
      },
      {
        name: "ssl_password_file with a variable",
        http: true,
        text: () =>
          `map $ssl_server_name $cyrus_passwords {\n    default ${key};\n}\n` +
          tlsServer(
            `    ssl_certificate ${cert};\n    ssl_certificate_key ${key};\n    ssl_password_file $cyrus_passwords;`,
          ),
        refused: VARIABLE("ssl_password_file"),
      },
      {
        name: "a map setting the variable ssl_certificate_key names to engine:…",
        http: true,
        text: () =>
          `map $ssl_server_name $cyrus_key {\n    default "${engine()}";\n}\n` +
          tlsServer(`    ssl_certificate ${cert};\n    ssl_certificate_key $cyrus_key;`),
        refused: ENGINE,
        loads: "handshake",
      },
      {
        name: "the same, engine: put together from two variables (written nowhere)",
        http: true,
        text: () =>
          `map $ssl_server_name $cyrus_e {\n    default "engi";\n}\n` +
          `map $ssl_server_name $cyrus_key {\n    default "\${cyrus_e}ne:${library}:key";\n}\n` +
          tlsServer(`    ssl_certificate ${cert};\n    ssl_certificate_key $cyrus_key;`),
        refused: VARIABLE("ssl_certificate_key"),
        loads: "handshake",
      },
    ];

    test("a change the check allows goes live through the same reload (the HUP reaches nginx)", async () => {
      const cyrusConf = path.join(conf, "cyrus.conf");
      const original = fs.readFileSync(cyrusConf, "utf8");
      try {
        fs.appendFileSync(cyrusConf, `\nserver {\n    listen 127.0.0.1:${extraPort};\n    return 204;\n}\n`);
        expect(reload().code).toBe(0);
        await waitFor(`http://127.0.0.1:${extraPort}/`, 204, 50);
      } finally {
        fs.writeFileSync(cyrusConf, original);
      }
      expect(reload().code).toBe(0);
      for (let i = 0; i < 50 && (await listening(extraPort)); i += 1) await sleep(100);
      expect(await listening(extraPort)).toBe(false);
    });

    test.each(forms)("$name: refused; nginx keeps the configuration it runs; the library never loads", async (form) => {
      const master = unit.child.pid;
      const before = fs.readFileSync(unitCopy, "utf8");
      const result = plantedByRelease(form.http ? path.join(conf, "cyrus.conf") : main(), form.text());
      expect(result.code).toBe(1);
      expect(result.output).toMatch(form.refused);
      // No HUP, and the copy nginx runs (and would start from) is the one it was.
      expect(fs.readFileSync(unitCopy, "utf8")).toBe(before);
      expect(unit.child.exitCode).toBeNull();
      expect(unit.child.pid).toBe(master);
      expect((await fetch(`http://127.0.0.1:${port}/home`)).status).toBe(200);
      expect(await listening(extraPort)).toBe(false);
      expect(await listening(tlsPort)).toBe(false);
      expect(fs.existsSync(marker)).toBe(false);
    });

    /** A configuration of nginx's user holding only `text` in http {}: what nginx does with the planted words. */
    const bare = (dir: string, text: string) => {
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, "bare.conf");
      fs.writeFileSync(
        file,
        [
          "daemon off;",
          "worker_processes 1;",
          `pid ${dir}/nginx.pid;`,
          `error_log ${dir}/error.log;`,
          "events { worker_connections 64; }",
          "http {",
          "    access_log off;",
          ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `    ${t}_temp_path ${dir}/${t};`),
          text,
          "}",
          "",
        ].join("\n"),
      );
      chownTree(dir, web);
      return file;
    };
    const nginxTest = (dir: string, file: string) =>
      spawnSync(NGINX, ["-t", "-q", "-p", dir, "-c", file, "-e", path.join(dir, "error.log")], {
        encoding: "utf8",
        cwd: base,
        ...asWeb(),
      });

    test.each(forms.filter((form) => form.loads))(
      "without the check, nginx given $name loads the library ($loads)",
      async (form) => {
        const dir = fs.mkdtempSync(path.join(base, "bare-"));
        fs.chmodSync(dir, 0o755);
        const file = bare(dir, form.text());
        try {
          const tested = nginxTest(dir, file);
          if (form.loads === "nginx -t") {
            // In the master, while it reads the configuration (OpenSSL then finds no engine in it).
            expect(tested.stderr).toContain(`cannot load certificate key "engine:${library}"`);
          } else {
            // Named through a variable: `nginx -t` passes, and the first visitor's handshake loads it, in a worker.
            expect(tested.status).toBe(0);
            expect(fs.existsSync(marker)).toBe(false);
            const nginx = run(NGINX, ["-p", dir, "-c", file, "-e", path.join(dir, "error.log")], {
              ...asWeb(),
              cwd: base,
            });
            try {
              for (let i = 0; i < 50 && !(await listening(tlsPort)); i += 1) await sleep(100);
              await handshake(tlsPort);
              for (let i = 0; i < 30 && !fs.existsSync(marker); i += 1) await sleep(100);
            } finally {
              await stopProc(nginx, "SIGQUIT", 5_000);
            }
          }
          expect(fs.readFileSync(marker, "utf8")).toMatch(new RegExp(`^loaded by uid ${web.uid} pid \\d+\\n`));
        } finally {
          fs.rmSync(marker, { force: true });
        }
      },
    );

    (canUnshare ? test : test.skip)(
      `the unit's NoExecPaths=/ and ExecPaths=, made as systemd makes them: nginx, its module, the check and kill run; the planted library does not map${canUnshare ? "" : " (skipped: needs root and unshare -m)"}`,
      () => {
        // The unit's two settings, as systemd reads them ("-": ignored when missing).
        const unitText = fs.readFileSync(path.join(projectRoot, "deploy", "systemd", "cyrus-nginx.service"), "utf8");
        const setting = (name: string) =>
          [...unitText.matchAll(new RegExp(`^${name}=(.*)$`, "gm"))].flatMap((m) => m[1]!.trim().split(/\s+/));
        expect(setting("NoExecPaths")).toEqual(["/"]);
        const execPaths = setting("ExecPaths")
          .map((p) => p.replace(/^-/, ""))
          // The check is this test's copy of it, where the setup would install it.
          .map((p) => (p === INSTALLED_CHECK ? CHECK : p))
          .filter((p) => fs.existsSync(p))
          .map((p) => fs.realpathSync(p));
        // In a mount namespace of its own: each ExecPaths= path bound over itself (exec), then every
        // mount there was remounted noexec, as systemd does for NoExecPaths=/ (mount itself kept
        // runnable for the loop: it is not part of the unit).
        const mounts = fs
          .readFileSync("/proc/self/mountinfo", "utf8")
          .trim()
          .split("\n")
          .map((line) =>
            line.split(" ")[4]!.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))),
          );
        const q = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
        const dir = fs.mkdtempSync(path.join(base, "noexec-"));
        fs.chmodSync(dir, 0o755);
        const planted = bare(dir, forms[0]!.text());
        const script = [
          ...[...execPaths, fs.realpathSync("/usr/bin/mount")].map((p) => `mount --bind ${q(p)} ${q(p)} || exit 90`),
          ...mounts.map((m) => `mount -o remount,bind,noexec ${q(m)} 2>/dev/null`),
          'echo "== true"; /usr/bin/true 2>&1; echo "rc=$?"',
          `echo "== check"; ${q(CHECK)} ${q(main())} ${q(path.join(dir, "checked.conf"))} 2>&1; echo "rc=$?"`,
          `echo "== nginx"; ${NGINX} -t -q -p ${q(runDir)} -c ${q(unitCopy)} -e ${q(path.join(dir, "error.log"))} 2>&1; echo "rc=$?"`,
          'echo "== kill"; /usr/bin/kill -0 $$ 2>&1; echo "rc=$?"',
          `echo "== engine"; ${NGINX} -t -q -p ${q(dir)} -c ${q(planted)} -e ${q(path.join(dir, "error.log"))} 2>&1; echo "rc=$?"`,
        ].join("\n");
        const result = spawnSync("unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script], {
          encoding: "utf8",
          cwd: base,
        });
        const parts = Object.fromEntries(
          `${result.stdout}${result.stderr}`
            .split(/^== /m)
            .slice(1)
            .map((part) => [part.slice(0, part.indexOf("\n")), part.slice(part.indexOf("\n") + 1).trim()]),
        );
        // What the unit does not list does not run: the namespace is as the unit's would be.
        expect(parts.true).toMatch(/Permission denied\nrc=126$/);
        expect(parts.check).toMatch(/only the site's directives and modules .*\nrc=0$/);
        expect(parts.nginx).toBe("rc=0");
        expect(parts.kill).toBe("rc=0");
        // Past the check, the library in the release's folder cannot be mapped: nothing of it ran.
        expect(parts.engine).toContain(`${library}: failed to map segment from shared object`);
        expect(parts.engine).toMatch(/rc=1$/);
        expect(fs.existsSync(marker)).toBe(false);
      },
    );
  },
);
