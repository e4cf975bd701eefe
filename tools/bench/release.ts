/**
 * The release's benchmark (`npm run bench:release`), for the figures in docs/performance.md: in the
 * place the release test uses (__tests__/deploy/support/release-site.ts: a bare repository for the
 * git host, nginx on loopback, the site's service with its push hook), on this machine:
 *
 * 1. the first release from nothing (packages copied from the release user's copy, a cold build);
 * 2. `--runs` times, a one-text change pushed and announced to the push hook as GitHub does, then
 *    `npm run release -- --wanted` as the path unit starts it: seconds from the push to the live
 *    /home showing the new text;
 * 3. `--rollback`: seconds until the previous text is served.
 *
 * Timings depend on the machine and its load (the load average is printed): this is not a test.
 * Usage: npm run bench:release -- [--runs 3]
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { startReleaseSite } from "../../__tests__/deploy/support/release-site";

const HEADING = "Welcome to Cyrus";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "3" } } });
  const runs = Number(values.runs);
  const site = await startReleaseSite();
  const shows = async (text: string) => (await site.page("/home")).text.includes(text);
  const seconds = (since: number) => Number(((Date.now() - since) / 1000).toFixed(1));
  const load = () => os.loadavg()[0]!.toFixed(1);
  try {
    let started = Date.now();
    const first = await site.release();
    if (first.code !== 0) throw new Error(`the first release failed:\n${first.output.slice(-3000)}`);
    console.log(`first release from nothing: ${seconds(started)} s (load ${load()})`);

    let previous = HEADING;
    const pushToLive: number[] = [];
    for (let i = 1; i <= runs; i += 1) {
      const text = `${HEADING}, change ${i}`;
      started = Date.now();
      const commit = site.push("data/home/home.yaml", (t) => t.replace(`"${previous}"`, `"${text}"`), `Home: ${i}`);
      if ((await site.hookPush(commit)) !== 202) throw new Error("the push hook did not take the push");
      const result = await site.release(["--wanted"]);
      if (result.code !== 0 || !(await shows(text))) throw new Error(`release ${i} failed:\n${result.output.slice(-3000)}`);
      pushToLive.push(seconds(started));
      console.log(`one-text change, push to live: ${pushToLive.at(-1)} s (load ${load()})`);
      previous = text;
    }
    const sorted = [...pushToLive].sort((a, b) => a - b);
    console.log(`push to live, median of ${runs}: ${sorted[Math.floor(sorted.length / 2)]} s`);

    started = Date.now();
    const back = await site.release(["--rollback"]);
    if (back.code !== 0) throw new Error(`the rollback failed:\n${back.output.slice(-3000)}`);
    console.log(`rollback: ${seconds(started)} s (load ${load()})`);
  } finally {
    await site.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
