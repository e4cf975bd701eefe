/**
 * The unit files of deploy/systemd and the sudoers rule of deploy/sudoers, as a server installs them
 * (docs/deployment.md): systemd's own check where systemd-analyze exists (these test machines have
 * it, but no running systemd), and what ties them together: the release runs as its own user, never
 * root or the service's; the path unit watches the very file the service's push hook writes; the
 * sudo rule allows exactly the release's default reload and restart commands; the service cannot
 * see the release's mirror or settings.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WANTED_FILE } from "../../src/site-service";
import { paths } from "../../deploy/release/layout";
import { DEFAULTS } from "../../deploy/release/settings";
import { projectRoot } from "../support/serve";

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
  (u.get("Service.Environment") ?? []).find((e) => e.startsWith(`${key}=`))?.slice(key.length + 1);

const hasAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;

(hasAnalyze ? test : test.skip)("systemd-analyze verify finds nothing to say about any unit", () => {
  const result = spawnSync("systemd-analyze", ["verify", ...unitFiles], { encoding: "utf8" });
  expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
    status: 0,
    output: "",
  });
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
  expect(one(nginx, "Service.ExecReload")).toBe("/bin/kill -HUP $MAINPID");
  // It runs what render.ts writes for it, with its pid, logs and temporary files in its own folder.
  const runDir = "/var/lib/cyrus-web";
  expect(one(nginx, "Service.ExecStart")).toBe(
    `/usr/sbin/nginx -p ${runDir} -c /srv/cyrus/current/nginx/cyrus-nginx.conf -e ${runDir}/logs/error.log`,
  );
  expect(one(nginx, "Service.StateDirectory")).toBe("cyrus-web cyrus-web/logs cyrus-web/temp");
  // The release unit writes its root and nothing else.
  for (const name of ["cyrus-release.service", "cyrus-release-poll.service"]) {
    expect(one(unit(name), "Service.ProtectSystem")).toBe("strict");
    expect(one(unit(name), "Service.ReadWritePaths")?.split(" ")[0]).toBe(env(unit(name), "RELEASE_ROOT"));
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

test("sudo lets the release user run exactly the release's default reload and restart, nothing else", () => {
  const rules = fs
    .readFileSync(path.join(projectRoot, "deploy", "sudoers", "cyrus-release"), "utf8")
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("#"));
  expect(rules).toHaveLength(1);
  const [, user, commands] = /^(\S+) ALL=\(root\) NOPASSWD: (.*)$/.exec(rules[0]!) ?? [];
  expect(user).toBe(one(unit("cyrus-release.service"), "Service.User"));
  // sudo runs systemctl from its secure_path: /usr/bin on Debian.
  const asRoot = (command: string) => command.replace(/^sudo systemctl /, "/usr/bin/systemctl ");
  // The reload is cyrus-nginx's, whose ExecReload signals nginx as its own user: root reads nothing of the release.
  expect(DEFAULTS.RELEASE_NGINX_RELOAD).toBe("sudo systemctl reload-or-restart cyrus-nginx");
  expect(commands!.split(/,\s*/)).toEqual([
    asRoot(DEFAULTS.RELEASE_NGINX_RELOAD),
    asRoot(DEFAULTS.RELEASE_SERVICE_RESTART),
  ]);
  // The service restarted is the unit of deploy/systemd.
  expect(DEFAULTS.RELEASE_SERVICE_RESTART.split(" ").at(-1)).toBe("cyrus-enquiry");
  expect(fs.existsSync(path.join(unitsDir, "cyrus-enquiry.service"))).toBe(true);
});
