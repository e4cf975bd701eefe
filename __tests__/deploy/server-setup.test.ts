/**
 * A release refuses to go live while root's own nginx still reaches into the release root (the
 * include of servers set up before nginx ran as its own user): deploy/release/server-setup.ts, on
 * stand-ins for /etc/nginx.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkServerSetup, rootIncludes } from "../../deploy/release/server-setup";

const RELEASE_ROOT = "/srv/cyrus";
let etc: string;

beforeEach(() => {
  etc = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-etc-nginx-"));
  fs.mkdirSync(path.join(etc, "sites-enabled"));
  fs.mkdirSync(path.join(etc, "conf.d"));
  fs.writeFileSync(
    path.join(etc, "nginx.conf"),
    "user www-data;\nhttp {\n    include /etc/nginx/conf.d/*.conf;\n    include /etc/nginx/sites-enabled/*;\n}\n",
  );
});
afterEach(() => fs.rmSync(etc, { recursive: true, force: true }));

test.each([
  ["an include line in a site file", "sites-enabled/cyrus", "include /srv/cyrus/current/nginx/cyrus.conf;\n", 1],
  [
    "the old docs' glob, inside http {}",
    "nginx.conf",
    "http {\n  include /srv/cyrus/current/nginx/cyrus[.]conf;\n}\n",
    2,
  ],
  [
    "an include of a release folder",
    "conf.d/x.conf",
    "  include /srv/cyrus/releases/20260101T000000Z-abc1234/nginx/cyrus.conf;\n",
    1,
  ],
])("%s is found, by file and line", (_, file, text, line) => {
  fs.writeFileSync(path.join(etc, file), text);
  expect(rootIncludes(etc, RELEASE_ROOT)).toEqual([`${path.join(etc, file)}:${line}`]);
  expect(() => checkServerSetup(etc, RELEASE_ROOT)).toThrow(
    'releases are held until the upgrade step "nginx runs as its own user" is taken',
  );
});

test("a link into the release root is found", () => {
  fs.symlinkSync("/srv/cyrus/current/nginx/cyrus.conf", path.join(etc, "sites-enabled", "cyrus"));
  expect(rootIncludes(etc, RELEASE_ROOT)).toEqual([
    `${path.join(etc, "sites-enabled", "cyrus")} -> /srv/cyrus/current/nginx/cyrus.conf`,
  ]);
});

test("a commented include, another site, or a path that only starts like the root is not", () => {
  fs.writeFileSync(path.join(etc, "sites-enabled", "old"), "# include /srv/cyrus/current/nginx/cyrus.conf;\n");
  fs.writeFileSync(
    path.join(etc, "sites-enabled", "other"),
    "include /srv/cyrus-other/site.conf;\nroot /srv/cyrus/x;\n",
  );
  fs.symlinkSync("/etc/nginx/sites-available/default", path.join(etc, "sites-enabled", "default"));
  expect(rootIncludes(etc, RELEASE_ROOT)).toEqual([]);
  expect(() => checkServerSetup(etc, RELEASE_ROOT)).not.toThrow();
  // No /etc/nginx at all (nginx not installed from Debian): nothing to hold.
  expect(rootIncludes(path.join(etc, "missing"), RELEASE_ROOT)).toEqual([]);
});
