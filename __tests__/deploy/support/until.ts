export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 25 ms until it holds; fails after `ms`, naming `what` it waited for. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 25) {
    if (waited > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(25);
  }
}
