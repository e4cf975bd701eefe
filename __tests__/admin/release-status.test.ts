/**
 * @jest-environment node
 *
 * What the studio says about publishing, from the status the release writes (admin/src/release-status).
 */
import { ago, describeStatus } from "../../admin/src/release-status";

const now = Date.parse("2026-11-26T12:00:00Z");
const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();
const live = { commit: "a1b2c3d4e5f6", title: "Update Services “study-design”", time: at(900), since: at(600) };

test("times are relative: no clock or time zone to explain", () => {
  expect([ago(at(10), now), ago(at(60), now), ago(at(7200), now), ago(at(86400 * 3), now)]).toEqual([
    "just now",
    "1 minute ago",
    "2 hours ago",
    "3 days ago",
  ]);
});

test("the live release, with its commit title", () => {
  expect(describeStatus({ live }, now)).toEqual([
    { tone: "live", text: "Live on the site: “Update Services “study-design”” (a1b2c3d), 10 minutes ago." },
  ]);
});

test("a release under way comes first, then what is live until it is done", () => {
  const underway = {
    commit: "ffee001122",
    title: "Update Pages “about”",
    time: at(30),
    startedAt: at(20),
    step: "build",
  };
  expect(describeStatus({ live, underway }, now).map((line) => line.tone)).toEqual(["running", "live"]);
  expect(describeStatus({ live, underway }, now)[0]!.text).toBe(
    "Going live: “Update Pages “about”” (ffee001), started just now. It is usually live within a minute or two.",
  );
});

test("a failure newer than the live release says where it stopped, in the check's own words", () => {
  const message = "data/services/study-design.yaml:4: order: 30 is already used by data/services/cdms.yaml";
  const lastFailure = {
    commit: "0badc0de99",
    title: "Update Services “study-design”",
    time: at(90),
    at: at(60),
    step: "content check",
    message,
  };
  const lines = describeStatus({ live, lastFailure }, now);
  expect(lines[0]).toEqual({
    tone: "failed",
    text: "Not live: “Update Services “study-design”” (0badc0d) stopped at the content check 1 minute ago. The site still shows the version before it. Put this right and publish again:",
    detail: message,
  });
  expect(lines[1]!.tone).toBe("live");
  // Once a later release went live, the old failure is history.
  expect(describeStatus({ live: { ...live, since: at(5) }, lastFailure }, now).map((line) => line.tone)).toEqual([
    "live",
  ]);
});

test("a failure of the server's steps says so in plain words and names the release's log", () => {
  const lastFailure = {
    commit: "0badc0de99",
    title: "Home: new welcome",
    time: at(90),
    at: at(60),
    step: "live check",
    message: "The new release did not answer after the switch; the previous one is live again.",
    log: "20261126T115800Z-0badc0d",
  };
  expect(describeStatus({ live, lastFailure }, now)[0]).toEqual({
    tone: "failed",
    text: "Not live: “Home: new welcome” (0badc0d) stopped at the check of the live site 1 minute ago. The site still shows the version before it. Whoever runs the server can read why in the release's log 20261126T115800Z-0badc0d:",
    detail: lastFailure.message,
  });
  // A status written before the log existed, and a rollback's step.
  const { log: _log, ...older } = lastFailure;
  expect(describeStatus({ lastFailure: { ...older, step: "rollback: nginx reload" } }, now)[0]!.text).toBe(
    "Not live: “Home: new welcome” (0badc0d) stopped at a rollback 1 minute ago. The site still shows the version before it. Tell whoever runs the server:",
  );
});

test("no status at all: nothing to say", () => {
  expect(describeStatus({}, now)).toEqual([]);
});

test("after a rollback, the pause comes before what is live, with the editors' way out", () => {
  const paused = {
    since: at(300),
    rolledBackFrom: { commit: "e1e2e3e4e5e6", title: "Update Pages “about”" },
    resume: "A new commit on the branch … (npm run release) …",
  };
  const lines = describeStatus({ live, paused }, now);
  expect(lines).toEqual([
    {
      tone: "paused",
      text: "The site was rolled back 5 minutes ago from “Update Pages “about”” (e1e2e3e): it shows the version before it until a new change is published. Your next published change goes live as usual.",
    },
    { tone: "live", text: "Live on the site: “Update Services “study-design”” (a1b2c3d), 10 minutes ago." },
  ]);
  // The server's own words for operators are not shown to editors.
  expect(lines.map((line) => line.text).join(" ")).not.toContain("npm run release");
});
