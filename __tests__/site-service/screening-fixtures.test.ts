/**
 * The spam screening against the two fixtures, sent to the receiver as the form sends them (JSON,
 * the honeypot's key empty unless the fixture filled it or its script skips the form):
 *
 * - genuine-enquiries.json: 88 real-looking enquiries in 16 languages, with links, drug names,
 *   prices and addresses in other scripts. Every one is accepted and none is flagged: a flag on a
 *   real lead is the failure this screening exists to avoid, so this test fails on a single one.
 * - spam-enquiries.json: 50 spam posts. Every one is accepted (201) and stored: screening never
 *   refuses. The catch rate is reported (docs/enquiry-design.md gives it), not pinned; the floor is what
 *   the signals promise: every post that carries a signal by construction (the kinds named after
 *   one, and any filled honeypot) is caught, and the plain pitches marked `expectedToPass` (no link
 *   dump, markup, shortener or honeypot: a person could have written them) are not.
 */
import fs from "node:fs";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createReceiver, type Receiver } from "../../src/site-service/enquiries/core/receiver";
import genuine from "../fixtures/genuine-enquiries.json";
import spam from "../fixtures/spam-enquiries.json";
import { memoryLog, projectRoot, tempDir } from "./support/harness";

interface Genuine {
  language: string;
  name: string;
  phone: string;
  email: string;
  message: string;
}

interface Spam extends Omit<Genuine, "language"> {
  kind: string;
  honeypot?: string;
  noHoneypotKey?: boolean;
  expectedToPass?: boolean;
}

const HONEYPOT = "cyrus_confirm_field";

/** Kinds whose every post carries a signal by how it was made. */
const SIGNAL_KINDS: Record<string, string> = {
  "link-dump": "urls-in-message",
  "html-links": "html-link",
  "bbcode-links": "bbcode-link",
  shortener: "url-shortener",
  "honeypot-filled": "honeypot",
};

let dir: string;
let receiver: Receiver;
beforeEach(() => {
  dir = tempDir();
  receiver = createReceiver(loadConfig({ ENQUIRY_DATA_DIR: dir, ENQUIRY_RATE_LIMIT: "1000" }, projectRoot), {
    mailer: null,
    log: memoryLog(),
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function send(body: object): Promise<{ status: number; screening: { verdict: string; signals: string[] } }> {
  const answer = await receiver.handleEnquiry({
    method: "POST",
    headers: { "content-type": "application/json" },
    rawBody: Buffer.from(JSON.stringify(body)),
    clientAddress: "127.0.0.1",
  });
  const { id } = JSON.parse(answer.body) as { id?: string };
  const stored = (await receiver.store.list()).enquiries.find((e) => e.id === id);
  return {
    status: answer.status,
    screening: (stored?.screening ?? { verdict: "(not stored)", signals: [] }) as {
      verdict: string;
      signals: string[];
    },
  };
}

const formBody = ({ name, phone, email, message }: Genuine | Spam, honeypot = "") => ({
  name,
  phone,
  email,
  message,
  [HONEYPOT]: honeypot,
});

test("the genuine fixture is what the issue asks for: at least 60 enquiries in at least 8 languages and scripts", () => {
  const entries = genuine as Genuine[];
  expect(entries.length).toBeGreaterThanOrEqual(60);
  expect(new Set(entries.map((e) => e.language)).size).toBeGreaterThanOrEqual(8);
  const text = entries.map((e) => `${e.name} ${e.email} ${e.message}`).join("\n");
  const scripts = ["Latin", "Tamil", "Devanagari", "Telugu", "Malayalam", "Bengali", "Han", "Arabic"]
    .concat(["Cyrillic", "Hiragana", "Katakana", "Hangul", "Thai"])
    .filter((script) => new RegExp(`\\p{Script=${script}}`, "u").test(text));
  expect(scripts.length).toBeGreaterThanOrEqual(8);
});

test.each([
  ["as the form sends it (the honeypot empty)", formBody],
  ["without the honeypot's key (an older page, an API client)", ({ language: _l, ...fields }: Genuine) => fields],
])("not one genuine enquiry is flagged, sent %s", async (_how, bodyOf) => {
  const flagged: string[] = [];
  for (const [i, entry] of (genuine as Genuine[]).entries()) {
    const { status, screening } = await send(bodyOf(entry));
    if (status !== 201 || screening.verdict !== "clean")
      flagged.push(`#${i} ${entry.language} ${entry.name}: ${status} ${screening.verdict} ${screening.signals}`);
  }
  expect(flagged).toEqual([]);
});

test("every spam post is accepted and stored; the catch rate by kind is reported", async () => {
  const results: Array<{ entry: Spam; verdict: string; signals: string[] }> = [];
  for (const entry of spam as Spam[]) {
    const body = entry.noHoneypotKey
      ? { name: entry.name, phone: entry.phone, email: entry.email, message: entry.message }
      : formBody(entry, entry.honeypot);
    const { status, screening } = await send(body);
    expect([entry.name, status]).toEqual([entry.name, 201]);
    results.push({ entry, ...screening });
  }
  expect(results.map((r) => r.verdict)).not.toContain("(not stored)");

  // The floor: what carries a signal by construction is caught, with that signal.
  for (const { entry, signals } of results) {
    const expected = SIGNAL_KINDS[entry.kind];
    if (expected) expect([entry.name, signals]).toEqual([entry.name, expect.arrayContaining([expected])]);
    if (entry.honeypot) expect([entry.name, signals]).toEqual([entry.name, expect.arrayContaining(["honeypot"])]);
  }
  // Plain pitches have nothing to catch, and a script that skips the form (no honeypot key) is
  // not suspect for that alone.
  const passed = (r: (typeof results)[number]) => r.verdict === "clean";
  expect(results.filter((r) => r.entry.expectedToPass && !passed(r)).map((r) => r.entry.name)).toEqual([]);
  for (const r of results.filter((r) => r.entry.noHoneypotKey)) expect(r.signals).not.toContain("honeypot");

  const byKind = new Map<string, { caught: number; of: number }>();
  for (const r of results) {
    const row = byKind.get(r.entry.kind) ?? { caught: 0, of: 0 };
    row.of += 1;
    if (!passed(r)) row.caught += 1;
    byKind.set(r.entry.kind, row);
  }
  const caught = results.filter((r) => !passed(r)).length;
  const meant = results.filter((r) => !r.entry.expectedToPass).length;
  console.info(
    [
      `spam screening: caught ${caught} of ${results.length} spam posts (${caught} of the ${meant} not expected to pass)`,
      ...[...byKind].map(([kind, { caught: c, of }]) => `  ${kind.padEnd(16)} ${c} of ${of}`),
      "missed:",
      ...results
        .filter(passed)
        .map((r) => `  ${r.entry.kind}: ${r.entry.name}${r.entry.expectedToPass ? " (expected)" : ""}`),
    ].join("\n"),
  );
});
