import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A root for `systemd-analyze --root` (a new one, or `root` where the setup wrote its units): the system's own units
 * (for the targets named), the units
 * where the setup installs them, the module check where it installs it, and stand-ins for the
 * programs they start (verify checks only that they are there and executable).
 */
export function verifyRoot(units: string[], root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-units-"))): string {
  fs.mkdirSync(path.join(root, "usr", "lib", "systemd"), { recursive: true });
  fs.cpSync("/usr/lib/systemd/system", path.join(root, "usr", "lib", "systemd", "system"), {
    recursive: true,
    verbatimSymlinks: true,
  });
  const installed = path.join(root, "etc", "systemd", "system");
  fs.mkdirSync(installed, { recursive: true });
  for (const file of units) fs.copyFileSync(file, path.join(installed, path.basename(file)));
  for (const program of [
    "usr/bin/node",
    "usr/sbin/nginx",
    "usr/bin/kill",
    "usr/local/lib/cyrus/nginx-module-check",
    "usr/local/lib/cyrus/certificates",
    "usr/local/lib/cyrus/backup",
    "usr/local/lib/cyrus/doctor",
  ]) {
    if (fs.existsSync(path.join(root, program))) continue;
    fs.mkdirSync(path.dirname(path.join(root, program)), { recursive: true });
    fs.writeFileSync(path.join(root, program), "", { mode: 0o755 });
  }
  if (!fs.existsSync(path.join(root, "bin"))) fs.symlinkSync("usr/bin", path.join(root, "bin"));
  return root;
}
