/**
 * SIGTERM to the enquiry service in the middle of a stream of enquiries through nginx, sent with
 * the contact form's own client (sendEnquiry): every enquiry answered 2xx is stored, exactly once;
 * every other one failed in a way the form reports with its error message (a 5xx, nginx's 503
 * while the service is down, or a network error), never a 4xx; nothing is stored that was not
 * answered 2xx; after a restart the service accepts again.
 */
import { sendEnquiry } from "../../src/components/enquiry-form/send-enquiry";
import { rawJson, request, slowPost } from "./support/http";
import { startStack, type Stack } from "./support/stack";
import { sleep, until } from "./support/until";

let stack: Stack;

beforeAll(async () => {
  // sendEnquiry reads the XSRF cookie of the page; in Node there is no page and no cookie.
  (globalThis as { document?: { cookie: string } }).document = { cookie: "" };
  stack = await startStack({ serviceEnv: { ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS: "10" } });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
}, 30_000);

type Phase = "before" | "stopping" | "down" | "after";
interface Outcome {
  phase: Phase;
  message: string;
  /** sendEnquiry resolved: the form shows its success message; otherwise its error message. */
  ok: boolean;
  status?: number;
  body?: { id?: string; error?: string };
  networkError?: string;
}

test("SIGTERM mid-stream: every 2xx stored once, every other answer an error the form shows, then accepting again", async () => {
  const outcomes: Outcome[] = [];
  let phase: Phase = "before";
  let running = true;
  const deadline = Date.now() + 90_000;

  const stream = async (worker: number) => {
    // Bounded: at most 600 enquiries per stream, and 90 s in all.
    for (let i = 0; running && i < 600 && Date.now() < deadline; i += 1) {
      const outcome: Outcome = { phase, message: `fault test ${worker}-${i}`, ok: false };
      const recordingFetch: typeof fetch = async (input, init) => {
        try {
          const res = await fetch(input, init);
          outcome.status = res.status;
          const text = await res.clone().text();
          try {
            outcome.body = JSON.parse(text) as Outcome["body"];
          } catch {
            outcome.body = { error: `not JSON: ${text.slice(0, 80)}` };
          }
          return res;
        } catch (error) {
          outcome.networkError = String((error as Error).cause ?? error);
          throw error;
        }
      };
      try {
        await sendEnquiry(
          { name: "Fault Test", phone: "", email: "fault@example.in", message: outcome.message },
          { endpoint: `${stack.origin}/api`, fetchImpl: recordingFetch },
        );
        outcome.ok = true;
      } catch {
        outcome.ok = false;
      }
      outcomes.push(outcome);
      if (!outcome.ok) await sleep(20);
    }
  };
  const streams = Array.from({ length: 8 }, (_, worker) => stream(worker));
  let slowId = "";
  const accepted = (p?: Phase) => outcomes.filter((o) => o.ok && (!p || o.phase === p)).length;

  try {
    await until(() => accepted("before") >= 40, 20_000, "40 enquiries accepted before the SIGTERM");
    // Besides the stream through nginx, one enquiry straight to the service whose body is still
    // arriving when the SIGTERM lands: certainly in flight.
    const port = Number(new URL(stack.serviceOrigin).port);
    const slowMessage = "in flight at the SIGTERM";
    const slow = slowPost(
      port,
      JSON.stringify({ name: "Slow Upload", email: "slow@example.in", message: slowMessage }),
    );
    await sleep(300);
    phase = "stopping";
    const exited = stack.stopService("SIGTERM");
    await until(
      () => stack.serviceLog().some((l) => l.msg === "shutting down"),
      10_000,
      "the service to start shutting down",
    );
    await sleep(200);
    slow.send();
    const slowAnswer = await slow.closed;
    const exit = await exited;
    phase = "down";
    expect(exit).toBe(0);
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 201 /);
    slowId = String(rawJson(slowAnswer).id);
    await until(
      () => outcomes.filter((o) => o.phase === "down" && !o.ok).length >= 5,
      20_000,
      "refusals while the service is down",
    );
    // nginx answers for the stopped service with JSON the form treats as an error.
    const down = await request(`${stack.origin}/api/health`);
    expect(down.status).toBe(503);
    expect(down.headers["retry-after"]).toBe("10");
    expect(JSON.parse(down.body.toString())).toMatchObject({ error: "service_unavailable" });

    await stack.startService();
    phase = "after";
    await until(() => accepted("after") >= 40, 20_000, "40 enquiries accepted after the restart");
  } finally {
    running = false;
    await Promise.all(streams);
  }

  const log = stack.serviceLog();
  const shutdown = log.find((l) => l.msg === "shutting down");
  const stopped = log.find((l) => l.msg === "stopped");
  console.log(
    `fault test: ${outcomes.length} enquiries; accepted ${accepted("before")} before, ${accepted("stopping")} during shutdown, ${accepted("after")} after the restart; ` +
      `${outcomes.filter((o) => !o.ok).length} refused (${JSON.stringify(
        countBy(
          outcomes.filter((o) => !o.ok),
          (o) => o.status ?? o.networkError ?? "?",
        ),
      )}); ` +
      `in flight at SIGTERM: ${shutdown?.inFlight}; clean stop: ${stopped?.clean}`,
  );
  expect(shutdown).toMatchObject({ reason: "SIGTERM", inFlight: expect.any(Number) });
  expect(shutdown!.inFlight as number).toBeGreaterThanOrEqual(1);
  expect(stopped).toMatchObject({ clean: true });

  // Every enquiry the visitor was told was sent is stored, exactly once.
  const storedCount = countBy(stack.stored(), (e) => e.id!);
  const okIds = outcomes.filter((o) => o.ok).map((o) => o.body?.id);
  expect(okIds.every((id) => typeof id === "string")).toBe(true);
  expect(okIds.filter((id) => storedCount[id!] !== 1)).toEqual([]);
  // The enquiry in flight at the SIGTERM was finished and stored, once.
  expect(storedCount[slowId]).toBe(1);
  // Nothing is stored that the visitor was told failed (they would send it again).
  expect(Object.keys(storedCount).sort()).toEqual([...okIds, slowId].sort());
  const storedMessages = new Set(stack.stored().map((e) => e.message));
  expect(outcomes.filter((o) => !o.ok && storedMessages.has(o.message)).map((o) => o.message)).toEqual([]);

  // Every failure is one the form reports as its error: a 5xx or a network error, never a 4xx.
  for (const o of outcomes.filter((x) => !x.ok)) {
    if (o.status !== undefined) expect([o.message, o.status >= 500]).toEqual([o.message, true]);
    else expect(o.networkError).toBeTruthy();
  }
  expect(outcomes.filter((o) => o.phase === "down" && !o.ok).length).toBeGreaterThanOrEqual(5);

  // Accepting again: one more, checked on its own.
  const last = await request(`${stack.origin}/api/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: stack.origin },
    body: JSON.stringify({ name: "After Restart", email: "after@example.in", message: "Accepted again." }),
  });
  expect(last.status).toBe(201);
}, 150_000);

function countBy<T>(items: T[], key: (item: T) => string | number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[String(key(item))] = (counts[String(key(item))] ?? 0) + 1;
  return counts;
}
