/**
 * @jest-environment node
 *
 * The check during `gatsby develop` runs again only when something under data/ changed, however many
 * ask (the watcher and the transformer), and tells its listeners each fresh result. The watcher sees
 * every way an editor changes data/, including a save that renames a new file over the old one.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ContentCheck } from "../../plugins/gatsby-plugin-cyrus-content/src/content-check";
import { watchFolder } from "../../plugins/gatsby-plugin-cyrus-content/src/watch";

let dataDir: string;

beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-check-")), "data");
  fs.mkdirSync(path.join(dataDir, "services"), { recursive: true });
  fs.writeFileSync(path.join(dataDir, "services", "a.yaml"), "title: A\n");
});

afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

test("validates again only after a change, and tells each fresh result", () => {
  const validate = jest.fn(() => []);
  const listener = jest.fn();
  const check = new ContentCheck(dataDir, validate);
  check.onResult(listener);
  check.run();
  check.run();
  expect(validate).toHaveBeenCalledTimes(1);
  fs.writeFileSync(path.join(dataDir, "services", "b.yaml"), "title: B\n");
  check.run();
  check.run();
  expect(validate).toHaveBeenCalledTimes(2);
  expect(listener).toHaveBeenCalledTimes(2);
});

test("a result known from start-up is not validated again", () => {
  const validate = jest.fn(() => []);
  const check = new ContentCheck(dataDir, validate);
  check.seed([]);
  expect(check.run()).toEqual([]);
  expect(validate).not.toHaveBeenCalled();
});

describe("watchFolder", () => {
  /** Resolves on the next call of the watcher's callback; fails after `ms`. */
  function nextChange(calls: { resolve?: () => void }, ms = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no change seen within ${ms} ms`)), ms);
      calls.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  test("sees a change, a save by rename, a new folder and its files, a removal: once per burst", async () => {
    const calls: { resolve?: () => void } = {};
    const onChange = jest.fn(() => calls.resolve?.());
    const stop = watchFolder(dataDir, onChange, { wait: 50, maxWait: 500 });
    const file = path.join(dataDir, "services", "a.yaml");
    try {
      let seen = nextChange(calls);
      fs.writeFileSync(file, "title: A2\n");
      fs.writeFileSync(file, "title: A3\n");
      await seen;
      expect(onChange).toHaveBeenCalledTimes(1);

      // As vim, sed -i and "atomic" saves do it, twice: the second is lost by a recursive fs.watch.
      for (const text of ["title: A4\n", "title: A5\n"]) {
        seen = nextChange(calls);
        fs.writeFileSync(`${file}.tmp`, text);
        fs.renameSync(`${file}.tmp`, file);
        await seen;
      }

      seen = nextChange(calls);
      fs.mkdirSync(path.join(dataDir, "approvals"));
      await seen;
      seen = nextChange(calls);
      fs.writeFileSync(path.join(dataDir, "approvals", "x.yaml"), "key: x\n");
      await seen;

      seen = nextChange(calls);
      fs.rmSync(file);
      await seen;
      expect(onChange).toHaveBeenCalledTimes(6);
    } finally {
      stop();
    }
  });
});
