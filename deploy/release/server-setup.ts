/**
 * Whether the server still runs the site as it was first set up: root's nginx (Debian's, under
 * /etc/nginx) including <root>/current/nginx/cyrus.conf in its http {} block. That include lets the
 * release user, who writes every release, have root's nginx parse a file of its own (an access_log
 * opened by the root master, an include of any file): docs/server-design.md, "Why nginx runs as its
 * own user". A release refuses to go live until the upgrade step has removed it.
 */
import fs from "node:fs";
import path from "node:path";
import { StepError } from "./exec";

/** Files and links looked at, at most: /etc/nginx holds a few dozen. */
const MAX_ENTRIES = 2000;
const MAX_FILE_BYTES = 1024 * 1024;

/** Where under `confDir` root's nginx reaches into the release root: an include line, or a link. */
export function rootIncludes(confDir: string, releaseRoot: string): string[] {
  const inRoot = (target: string) => target === releaseRoot || target.startsWith(`${releaseRoot}/`);
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable to the release user: nothing it could have written either
    }
    for (const entry of entries) {
      if ((seen += 1) > MAX_ENTRIES) return;
      const file = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = path.resolve(dir, fs.readlinkSync(file));
        if (inRoot(target)) found.push(`${file} -> ${target}`);
        continue;
      }
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) {
        let text: string;
        try {
          if (fs.statSync(file).size > MAX_FILE_BYTES) continue;
          text = fs.readFileSync(file, "utf8");
        } catch {
          continue;
        }
        text.split("\n").forEach((line, index) => {
          const code = line.replace(/#.*$/, "");
          if (/\binclude\b/.test(code) && code.includes(`${releaseRoot}/`)) found.push(`${file}:${index + 1}`);
        });
      }
    }
  };
  walk(confDir);
  return found;
}

export const SERVER_SETUP_STEP = "server setup";

/** Throws (step "server setup") while root's nginx still includes the release's configuration. */
export function checkServerSetup(rootNginxConf: string, releaseRoot: string): void {
  const found = rootIncludes(rootNginxConf, releaseRoot);
  if (found.length === 0) return;
  throw new StepError(
    SERVER_SETUP_STEP,
    `root's nginx still includes the release's configuration (${found.join(", ")}): releases are held ` +
      'until the upgrade step "nginx runs as its own user" is taken (docs/server-reference.md, "Upgrade notes")',
  );
}
