/**
 * Review before going live (CMS_REVIEW=1, Decap's editorial workflow), in the real studio: a change
 * is saved as a draft on a branch of its own and the site's branch does not move; it goes to review,
 * then ready; Publish merges it into main, which is what starts a release. decap-server's git mode
 * stands for the git host here (no GitHub or GitLab can be reached from these machines): it keeps
 * unpublished entries on cms/<collection>/<slug> branches of a local repository, as the hosts do.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import { parse } from "yaml";
import { startStudio, type RunningStudio } from "../../../admin/scripts/cms";
import { inspectContent } from "../../../src/node/content/validate";
import { freePort, projectRoot } from "../../support/serve";
import { askToPublish, control, open, test } from "./support/studio-session";

let dir: string;
let studio: RunningStudio;

const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
const onMain = (file: string) => parse(git("show", `main:data/${file}`)) as Record<string, unknown>;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-review-"));
  fs.cpSync(path.join(projectRoot, "data"), path.join(dir, "data"), { recursive: true });
  git("init", "-q", "-b", "main");
  git("-c", "user.name=Test", "-c", "user.email=test@example.org", "add", "data");
  git("-c", "user.name=Test", "-c", "user.email=test@example.org", "commit", "-qm", "Content as on the site");
  git("config", "user.name", "Editor");
  git("config", "user.email", "editor@example.org");
  studio = await startStudio({
    repo: dir,
    port: await freePort(),
    apiPort: await freePort(),
    out: path.join(dir, "..", `${path.basename(dir)}-studio`),
    review: true,
    // As npm run release builds it: the bar reads <out>/release-status.json, which the last test writes.
    releaseStatus: true,
    reuseBuild: true,
  });
});

test.afterAll(async () => {
  await studio?.stop();
  if (dir) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(`${dir}-studio`, { recursive: true, force: true });
  }
});

test("a change is a draft on its own branch until it is ready and published; then main has it", async ({ page }) => {
  const file = fs.readdirSync(path.join(dir, "data/services")).find((name) => name.endsWith(".yaml"))!;
  const slug = file.replace(/\.yaml$/, "");
  const before = onMain(`services/${file}`);
  const label = `${String(before.menuLabel)} (reviewed)`;

  await open(page, studio, `services/entries/${slug}`);
  await control(page, "Menu label").locator("input").fill(label);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Entry saved")).toBeVisible();

  // A draft: on a branch of its own; the site's branch, and so the live site, unchanged.
  const branch = `cms/services/${slug}`;
  expect(git("branch", "--list", branch)).toContain(branch);
  expect(onMain(`services/${file}`).menuLabel).toBe(before.menuLabel);
  expect((parse(git("show", `${branch}:data/services/${file}`)) as Record<string, unknown>).menuLabel).toBe(label);

  await page.goto(`${studio.url}#/workflow`);
  await expect(page.getByRole("heading", { name: "Drafts" })).toBeVisible();
  await expect(page.getByText(String(before.title)).or(page.getByText(label)).first()).toBeVisible();

  await page.goto(`${studio.url}#/collections/services/entries/${slug}`);
  await page.getByRole("button", { name: /^Status: / }).click();
  await page.getByText("Ready", { exact: true }).filter({ visible: true }).first().click();
  await expect(page.getByRole("button", { name: "Status: Ready" })).toBeVisible();
  // Decap asks before it merges, in the browser's own dialog.
  const asked: string[] = [];
  page.once("dialog", (dialog) => void (asked.push(dialog.message()), dialog.accept()));
  await askToPublish(page);
  await expect(page.getByText("Entry published")).toBeVisible();
  expect(asked).toEqual([expect.stringMatching(/publish/i)]);

  // Published: merged into main (the push a release starts from), the branch gone, the check passes.
  expect(onMain(`services/${file}`).menuLabel).toBe(label);
  expect(git("branch", "--list", branch)).toBe("");
  expect(inspectContent(path.join(dir, "data")).problems).toEqual([]);
});

test("the studio shows where a change is: a failed release in the check's words, then the live one", async ({
  page,
}) => {
  const status = path.join(`${dir}-studio`, "release-status.json");
  const now = Date.now();
  const message = "data/services/cdms.yaml:3: order: 10 is already used by data/services/clinical-operations.yaml";
  fs.writeFileSync(
    status,
    JSON.stringify({
      live: {
        commit: "1111111aaaa",
        title: "Update Pages “about”",
        time: new Date(now - 4_000_000).toISOString(),
        since: new Date(now - 3_600_000).toISOString(),
      },
      lastFailure: {
        commit: "2222222bbbb",
        title: "Update Services “cdms”",
        time: new Date(now - 90_000).toISOString(),
        at: new Date(now - 60_000).toISOString(),
        step: "content check",
        message,
      },
    }),
  );
  await open(page, studio, "services");
  const bar = page.getByRole("status", { name: "Publishing" });
  await expect(bar).toContainText("Not live: “Update Services “cdms”” (2222222) stopped at the content check");
  await expect(bar.locator("pre")).toHaveText(message);
  await expect(bar).toContainText("Live on the site: “Update Pages “about”” (1111111), 1 hour ago.");

  fs.writeFileSync(
    status,
    JSON.stringify({
      live: { commit: "3333333cccc", title: "Update Services “cdms”", time: new Date().toISOString() },
    }),
  );
  await page.reload();
  await expect(bar).toHaveText("Live on the site: “Update Services “cdms”” (3333333), just now.");
  fs.rmSync(status);
  await page.reload();
  await expect(page.getByRole("link", { name: "Pages" }).first()).toBeVisible();
  await expect(bar).toHaveCount(0);
});
