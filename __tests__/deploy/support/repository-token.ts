/**
 * A repository token as the release tests use one (release-credentials, release-first): the token and
 * the forms it could show in, the editor's git, and a scan of a folder's files for those forms.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const USERNAME = "x-access-token";
export const TOKEN = `tok_${crypto.randomBytes(20).toString("hex")}`;
/** The token as it could show: itself, and in a Basic header (as `-c http.extraHeader=…` would put it). */
export const SECRETS = [TOKEN, Buffer.from(`${USERNAME}:${TOKEN}`).toString("base64")];
/** A draft branch of the editing studio, which no other user may read. */
export const DRAFT = "cms/posts/unpublished-draft";

/** git as the editor, who commits (the host's side needs no identity). */
export function git(cwd: string, args: string[]): string {
  const result = spawnSync("git", ["-c", "user.name=Editor", "-c", "user.email=editor@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
}

/** Every regular file under `dir` whose bytes hold the token in any form (symlinks are not followed). */
export function filesHoldingSecrets(dir: string, except: string[] = []): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && !except.includes(file)) {
        const bytes = fs.readFileSync(file);
        if (SECRETS.some((secret) => bytes.includes(secret))) found.push(path.relative(dir, file));
      }
    }
  };
  walk(dir);
  return found;
}
