import fs from "node:fs";
import path from "node:path";

/**
 * The pages Gatsby rendered into public/: every .html file but Gatsby's slices (public/_gatsby/),
 * its asset folder (public/static/), the inbox (public/inbox/: its own app, src/node/inbox-build.ts,
 * not the public site's) and files the site copies as they are from its static/ folder.
 */
export function builtPages(publicDir: string, siteStaticDir = path.resolve("static")): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory())
        return dir === publicDir && (entry.name === "_gatsby" || entry.name === "static" || entry.name === "inbox")
          ? []
          : walk(full);
      return entry.name.endsWith(".html") && !fs.existsSync(path.join(siteStaticDir, path.relative(publicDir, full)))
        ? [full]
        : [];
    });
  return walk(publicDir).sort();
}
