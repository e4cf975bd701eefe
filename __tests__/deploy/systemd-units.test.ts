/**
 * The unit files of deploy/systemd and the polkit rule of deploy/polkit, as deploy/server/setup
 * installs them (docs/server-reference.md): systemd's own check where systemd-analyze exists (these test
 * machines have it, but no running systemd), and what ties them together: the release runs as its
 * own user, never root or the service's; the path unit watches the very file the service's push hook
 * writes; the polkit rule allows exactly the release's reload and restart commands, so the release
 * units set NoNewPrivileges; the service cannot see the release's mirror or settings.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { WANTED_FILE } from "../../src/site-service";
import { BROTLI_STATIC_MODULE } from "../../deploy/nginx/render";
import { paths } from "../../deploy/release/layout";
import { DEFAULTS } from "../../deploy/release/settings";
import { projectRoot } from "../support/serve";
import { verifyRoot } from "./support/verify-root";

const unitsDir = path.join(projectRoot, "deploy", "systemd");
const unitFiles = fs.readdirSync(unitsDir).map((name) => path.join(unitsDir, name));

/** A unit's settings: "Section.Key" -> values, in order (Environment= may repeat). */
function unit(name: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = "";
  for (const line of fs.readFileSync(path.join(unitsDir, name), "utf8").split("\n")) {
    const header = /^\[(\w+)\]$/.exec(line.trim());
    if (header) section = header[1]!;
    const pair = /^(\w+)=(.*)$/.exec(line.trim());
    if (pair) settings.set(`${section}.${pair[1]}`, [...(settings.get(`${section}.${pair[1]}`) ?? []), pair[2]!]);
  }
  return settings;
}
const one = (u: Map<string, string[]>, key: string) => u.get(key)?.at(-1);
const env = (u: Map<string, string[]>, key: string) =>
  (u.get("Service.Environment") ?? [])
    .map((e) => e.replace(/^"(.*)"$/, "$1"))
    .find((e) => e.startsWith(`${key}=`))
    ?.slice(key.length + 1);

const hasAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;

(hasAnalyze ? test : test.skip)("systemd-analyze verify finds nothing to say about any unit", () => {
  const root = verifyRoot(unitFiles);
  try {
    const result = spawnSync(
      "systemd-analyze",
      [`--root=${root}`, "verify", ...unitFiles.map((f) => path.basename(f))],
      {
        encoding: "utf8",
      },
    );
    expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
      status: 0,
      output: "",
    });
    // It would say something: a unit with a mistake in it is not passed.
    fs.appendFileSync(path.join(root, "etc", "systemd", "system", "cyrus-nginx.service"), "Bogus=1\n");
    const broken = spawnSync("systemd-analyze", [`--root=${root}`, "verify", "cyrus-nginx.service"], {
      encoding: "utf8",
    });
    expect(`${broken.stdout}${broken.stderr}`).toContain("Unknown key 'Bogus'");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("the release runs as its own user, never root or the service's, on the push's request and on the timer", () => {
  const service = unit("cyrus-enquiry.service");
  const serviceUser = one(service, "Service.User");
  for (const [name, mode] of [
    ["cyrus-release.service", "--wanted"],
    ["cyrus-release-poll.service", "--if-moved"],
  ] as const) {
    const release = unit(name);
    const user = one(release, "Service.User");
    expect(user).toBeTruthy();
    expect([serviceUser, "root"]).not.toContain(user);
    expect(one(release, "Service.ExecStart")).toMatch(new RegExp(`deploy/release/cli\\.ts ${mode}$`));
    expect(one(release, "Service.WorkingDirectory")).toBe(`${env(release, "RELEASE_ROOT")}/current`);
  }
  // The timer starts the poll; the path unit starts the release when the hook's note exists.
  expect(unit("cyrus-release-poll.timer").has("Timer.OnUnitInactiveSec")).toBe(true);
  const requests = env(unit("cyrus-release.service"), "RELEASE_REQUESTS_DIR");
  expect(env(service, "RELEASE_REQUESTS_DIR")).toBe(requests);
  expect(one(unit("cyrus-release.path"), "Path.PathExists")).toBe(`${requests}/${WANTED_FILE}`);
  expect(one(unit("cyrus-release.path"), "Path.Unit")).toBe("cyrus-release.service");
  // The service may write there (its file system is read-only otherwise), through the release's group.
  expect(one(service, "Service.ReadWritePaths")).toBe(requests);
  expect(one(service, "Service.SupplementaryGroups")).toBe(one(unit("cyrus-release.service"), "Service.Group"));
});

test("nginx runs as its own user with one capability, on the live release's configuration, never as root", () => {
  const nginx = unit("cyrus-nginx.service");
  const user = one(nginx, "Service.User");
  // Not root, not the release user (its internet-facing workers must not rewrite releases), not the service's.
  expect([
    undefined,
    "root",
    one(unit("cyrus-release.service"), "Service.User"),
    one(unit("cyrus-enquiry.service"), "Service.User"),
  ]).not.toContain(user);
  // No Exec line runs with full privileges ("+" or "!" prefixes would).
  for (const key of ["Service.ExecStart", "Service.ExecReload", "Service.ExecStartPre"])
    for (const line of nginx.get(key) ?? []) expect(line).not.toMatch(/^[+!]/);
  expect(one(nginx, "Service.AmbientCapabilities")).toBe("CAP_NET_BIND_SERVICE");
  expect(one(nginx, "Service.CapabilityBoundingSet")).toBe("CAP_NET_BIND_SERVICE");
  expect(one(nginx, "Service.NoNewPrivileges")).toBe("yes");
  // Before every start and every reload, root's module check (never a release's file) reads the
  // live release's configuration as nginx's user and writes the copy nginx then runs.
  const check =
    "/usr/local/lib/cyrus/nginx-module-check /srv/cyrus/current/nginx/cyrus-nginx.conf /var/lib/cyrus-web/cyrus-nginx.conf";
  expect(nginx.get("Service.ExecStartPre")).toEqual([check]);
  expect(nginx.get("Service.ExecReload")).toEqual([check, "/bin/kill -HUP $MAINPID"]);
  // It runs that copy, with its pid, logs and temporary files in its own folders, none inside another.
  expect(one(nginx, "Service.ExecStart")).toBe(
    "/usr/sbin/nginx -p /var/lib/cyrus-web -c /var/lib/cyrus-web/cyrus-nginx.conf -e /var/log/cyrus-web/error.log",
  );
  for (const kind of ["State", "Logs", "Cache"]) {
    expect(one(nginx, `Service.${kind}Directory`)).toBe("cyrus-web");
    expect(one(nginx, `Service.${kind}DirectoryMode`)).toBe("0750");
  }
  expect(nginx.has("Service.RuntimeDirectory")).toBe(false);
  for (const [key, value] of [
    ["ProtectKernelModules", "yes"],
    ["RestrictNamespaces", "yes"],
    ["LockPersonality", "yes"],
    ["MemoryDenyWriteExecute", "yes"],
    ["SystemCallFilter", "@system-service"],
  ])
    expect(one(nginx, `Service.${key}`)).toBe(value);
  // Code maps from nginx, the check, kill and the system's libraries and modules only: not from a
  // release (/srv), nor anything nginx's user or another may write (nginx-module-check.test.ts makes
  // these mounts as systemd does: nginx and its module run, a planted library cannot be mapped).
  expect(nginx.get("Service.NoExecPaths")).toEqual(["/"]);
  const execPaths = (nginx.get("Service.ExecPaths") ?? []).flatMap((value) => value.split(/\s+/));
  const program = (line: string | undefined) => line?.split(" ")[0]?.replace(/^\/bin\//, "/usr/bin/");
  const interpreter = /^#!(\S+)/.exec(
    fs.readFileSync(path.join(projectRoot, "deploy", "server", "nginx-module-check"), "utf8"),
  )?.[1];
  expect(execPaths).toEqual([
    program(one(nginx, "Service.ExecStart")),
    program(one(nginx, "Service.ExecStartPre")),
    interpreter,
    program(nginx.get("Service.ExecReload")?.at(-1)),
    "/usr/lib",
  ]);
  expect(execPaths).toEqual([
    "/usr/sbin/nginx",
    "/usr/local/lib/cyrus/nginx-module-check",
    "/usr/bin/perl",
    "/usr/bin/kill",
    "/usr/lib",
  ]);
  expect(BROTLI_STATIC_MODULE.startsWith("/usr/lib/nginx/modules/")).toBe(true);
  // The release unit writes its root and nothing else, and nothing it runs gains a privilege.
  for (const name of ["cyrus-release.service", "cyrus-release-poll.service"]) {
    expect(one(unit(name), "Service.ProtectSystem")).toBe("strict");
    expect(one(unit(name), "Service.ReadWritePaths")).toBe(env(unit(name), "RELEASE_ROOT"));
    expect(one(unit(name), "Service.NoNewPrivileges")).toBe("yes");
  }
});

test("the service cannot see the release's mirror (the drafts) or its settings (the repository's token)", () => {
  const root = env(unit("cyrus-release.service"), "RELEASE_ROOT")!;
  expect(root).toBeTruthy();
  const hidden = (unit("cyrus-enquiry.service").get("Service.InaccessiblePaths") ?? []).flatMap((value) =>
    value.split(/\s+/),
  );
  // "-": ignored while the path does not exist yet (before the first release), so the unit still starts.
  expect(hidden).toEqual(
    expect.arrayContaining([`-${paths(root).mirror}`, `-${path.join(paths(root).shared, "release.env")}`]),
  );
});

test("doctor runs every day as root, with setpriv's rights alone, and e-mails the operator when something is wrong", () => {
  const timer = unit("cyrus-doctor.timer");
  expect(one(timer, "Timer.OnCalendar")).toBe("daily");
  // A day missed while the server was off is run when it is back.
  expect(one(timer, "Timer.Persistent")).toBe("true");
  const doctor = unit("cyrus-doctor.service");
  expect(one(doctor, "Service.Type")).toBe("oneshot");
  expect(one(doctor, "Service.ExecStart")).toBe("/usr/local/lib/cyrus/doctor --notify");
  // Root's (no User=): it runs what is another user's as that user, and reads no one else's files.
  expect(doctor.has("Service.User")).toBe(false);
  expect(one(doctor, "Service.CapabilityBoundingSet")).toBe("CAP_SETUID CAP_SETGID");
  expect(one(doctor, "Service.NoNewPrivileges")).toBe("yes");
  expect(one(doctor, "Service.PrivateTmp")).toBe("yes");
});

/** The polkit rule of deploy/polkit, run as polkitd runs it, for one request. */
function polkitAnswer(user: string, actionId: string, details: Record<string, string>): string | undefined {
  const rules: ((action: unknown, subject: unknown) => unknown)[] = [];
  const polkit = {
    Result: { YES: "yes", NO: "no", AUTH_ADMIN: "auth_admin" },
    addRule: (rule: never) => rules.push(rule),
  };
  vm.runInNewContext(fs.readFileSync(path.join(projectRoot, "deploy", "polkit", "cyrus-release.rules"), "utf8"), {
    polkit,
  });
  expect(rules).toHaveLength(1);
  const action = { id: actionId, lookup: (key: string) => details[key] };
  return rules[0]!(action, { user }) as string | undefined;
}

test("polkit lets the release user run exactly the release's reload and restart, nothing else", () => {
  const releaseUser = one(unit("cyrus-release.service"), "Service.User")!;
  const manage = "org.freedesktop.systemd1.manage-units";
  // The two commands, as the settings' defaults and the release units give them: systemctl asks
  // systemd, which asks polkit with the unit's full name and the verb.
  const asked = (command: string) => {
    const [program, verb, unitName] = command.split(" ");
    expect(program).toBe("systemctl");
    return { verb: verb!, unit: unitName! };
  };
  const allowed = [asked(DEFAULTS.RELEASE_NGINX_RELOAD), asked(DEFAULTS.RELEASE_SERVICE_RESTART)];
  expect(allowed).toEqual([
    { verb: "reload-or-restart", unit: "cyrus-nginx.service" },
    { verb: "restart", unit: "cyrus-enquiry.service" },
  ]);
  for (const name of ["cyrus-release.service", "cyrus-release-poll.service"]) {
    expect(env(unit(name), "RELEASE_NGINX_RELOAD")).toBe(DEFAULTS.RELEASE_NGINX_RELOAD);
    expect(env(unit(name), "RELEASE_SERVICE_RESTART")).toBe(DEFAULTS.RELEASE_SERVICE_RESTART);
  }
  for (const { verb, unit: unitName } of allowed)
    expect(polkitAnswer(releaseUser, manage, { unit: unitName, verb })).toBe("yes");
  // Everything else is left to polkit's defaults (which ask an administrator): other verbs, other
  // units, other users, other actions.
  const refused: [string, string, Record<string, string>][] = [
    [releaseUser, manage, { unit: "cyrus-nginx.service", verb: "stop" }],
    [releaseUser, manage, { unit: "cyrus-nginx.service", verb: "restart" }],
    [releaseUser, manage, { unit: "cyrus-nginx.service", verb: "start" }],
    [releaseUser, manage, { unit: "cyrus-enquiry.service", verb: "reload-or-restart" }],
    [releaseUser, manage, { unit: "cyrus-enquiry.service", verb: "stop" }],
    [releaseUser, manage, { unit: "nginx.service", verb: "reload-or-restart" }],
    [releaseUser, manage, { unit: "ssh.service", verb: "restart" }],
    [releaseUser, manage, { unit: "cyrus-release.service", verb: "restart" }],
    [
      releaseUser,
      "org.freedesktop.systemd1.manage-unit-files",
      { unit: "cyrus-nginx.service", verb: "reload-or-restart" },
    ],
    [releaseUser, "org.freedesktop.systemd1.set-environment", {}],
    [releaseUser, "org.freedesktop.systemd1.reload-daemon", {}],
    ["cyrus", manage, { unit: "cyrus-nginx.service", verb: "reload-or-restart" }],
    ["cyrus-web", manage, { unit: "cyrus-enquiry.service", verb: "restart" }],
  ];
  for (const [user, id, details] of refused)
    expect({ user, id, details, answer: polkitAnswer(user, id, details) }).toEqual({
      user,
      id,
      details,
      answer: undefined,
    });
  // The sudo rule it replaces is gone from the project (the setup removes an installed one).
  expect(fs.existsSync(path.join(projectRoot, "deploy", "sudoers"))).toBe(false);
  expect(DEFAULTS.RELEASE_SERVICE_RESTART.split(" ").at(-1)).toBe("cyrus-enquiry.service");
  expect(fs.existsSync(path.join(unitsDir, "cyrus-enquiry.service"))).toBe(true);
});
