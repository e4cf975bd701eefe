/** The PostgreSQL engine's queue for its connections: at most max at once, in order, a failure giving its turn back. */
import { gate } from "../../src/site-service/enquiries/store/gate";

test("at most max at once, in the order they came, and a failed one gives its turn back", async () => {
  const turn = gate(2);
  let active = 0;
  let most = 0;
  const order: number[] = [];
  const task = (n: number) =>
    turn(async () => {
      active += 1;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(n);
      active -= 1;
      if (n === 1) throw new Error("failed");
      return n;
    });
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(task));
  expect(most).toBe(2);
  expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  expect(results.map((r) => r.status)).toEqual([
    "fulfilled",
    "rejected",
    "fulfilled",
    "fulfilled",
    "fulfilled",
    "fulfilled",
  ]);
  expect(await turn(async () => "free again")).toBe("free again");
});
