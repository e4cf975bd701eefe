/**
 * The core's pure parts on their own: settings, the sliding window, client keys, origins; and the
 * edge's reading of a proxy's headers (http/proxy.ts), which the core never sees.
 */
import path from "node:path";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { ConfigError } from "../../src/site-service/service/env";
import { clientKey } from "../../src/site-service/enquiries/core/client-key";
import { isCrossSite } from "../../src/site-service/enquiries/core/cross-site";
import { clientView, loadProxySettings, pastDeadline } from "../../src/site-service/service/proxy";
import { singleLine } from "../../src/site-service/enquiries/mail/mailer";
import { SlidingWindowLimiter } from "../../src/site-service/enquiries/core/rate-limit";
import { sharedReceiver } from "../../src/site-service/enquiries/core/receiver";
import { validateEnquiry } from "../../src/site-service/enquiries/core/validate";
import { tempDir } from "./support/harness";

describe("settings", () => {
  test("defaults", () => {
    const config = loadConfig({}, "/srv/site");
    expect(config).toEqual({
      dataDir: path.resolve("/srv/site/var/enquiries"),
      databaseUrl: undefined,
      databaseConnections: 10,
      webhook: undefined,
      smtpUrl: undefined,
      to: undefined,
      from: undefined,
      rateLimit: 5,
      rateWindowSeconds: 600,
      siteOrigin: "https://www.example.com",
      allowedOrigins: ["https://www.example.com", "http://localhost:9000", "http://localhost:8000"],
      awaitDelivery: false,
      maxBodyBytes: 16384,
      alertTo: undefined,
      migrationBounds: { lockTimeoutMs: 30_000, statementTimeoutMs: 120_000 },
    });
    expect(loadProxySettings({})).toEqual({ trustProxy: false, deadlineSeconds: 20 });
  });

  test("every variable, and a relative data folder is taken from the project root", () => {
    const env = {
      ENQUIRY_DATA_DIR: "data/enq",
      SMTP_URL: " smtps://user:pw@mail.example.com ",
      ENQUIRY_TO: "Desk <desk@cyrus.example>, boss@cyrus.example",
      ENQUIRY_RATE_LIMIT: "3",
      ENQUIRY_RATE_WINDOW_SECONDS: "60",
      SITE_URL: "https://cyrus.example/",
      ENQUIRY_TRUST_PROXY: "1",
      ENQUIRY_AWAIT_DELIVERY: "true",
      ENQUIRY_DEADLINE_SECONDS: "8",
      ENQUIRY_SUSPECT_TO: " screening@cyrus.example ",
      ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS: "5",
      ENQUIRY_MIGRATION_TIMEOUT_SECONDS: "600",
    };
    const config = loadConfig(env, "/srv/site");
    expect(config).toMatchObject({
      dataDir: path.resolve("/srv/site/data/enq"),
      smtpUrl: "smtps://user:pw@mail.example.com",
      suspectTo: "screening@cyrus.example",
      from: "Cyrus website <desk@cyrus.example>",
      rateLimit: 3,
      rateWindowSeconds: 60,
      siteOrigin: "https://cyrus.example",
      allowedOrigins: ["https://cyrus.example", "http://localhost:9000", "http://localhost:8000"],
      awaitDelivery: true,
      alertTo: "Desk <desk@cyrus.example>, boss@cyrus.example",
      migrationBounds: { lockTimeoutMs: 5_000, statementTimeoutMs: 600_000 },
    });
    expect(loadConfig({ ...env, ENQUIRY_ALERT_TO: " ops@cyrus.example " }).alertTo).toBe("ops@cyrus.example");
    expect(loadProxySettings(env)).toEqual({ trustProxy: true, deadlineSeconds: 8 });
    expect(loadConfig({ ENQUIRY_TO: "a@b.co", ENQUIRY_FROM: "Web <web@b.co>" }).from).toBe("Web <web@b.co>");
  });

  test.each([
    [{ ENQUIRY_RATE_LIMIT: "0" }, /ENQUIRY_RATE_LIMIT/],
    [{ ENQUIRY_RATE_WINDOW_SECONDS: "ten" }, /ENQUIRY_RATE_WINDOW_SECONDS/],
    [{ ENQUIRY_TRUST_PROXY: "maybe" }, /ENQUIRY_TRUST_PROXY/],
    [{ ENQUIRY_ALLOWED_ORIGINS: "cyrus.example" }, /ENQUIRY_ALLOWED_ORIGINS/],
    [{ ENQUIRY_DEADLINE_SECONDS: "0" }, /ENQUIRY_DEADLINE_SECONDS/],
    [{ ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS: "0" }, /ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS/],
  ])("a wrong value is a clear ConfigError: %p", (env, message) => {
    const load = (e: typeof env) => ({ ...loadConfig(e), ...loadProxySettings(e) });
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });
});

test("the sliding window frees slots one by one as they age out", () => {
  const limiter = new SlidingWindowLimiter(2, 10_000);
  expect(limiter.take("a", 0)).toEqual({ ok: true });
  expect(limiter.take("a", 4_000)).toEqual({ ok: true });
  expect(limiter.take("a", 5_000)).toEqual({ ok: false, retryAfterSeconds: 5 });
  expect(limiter.take("b", 5_000)).toEqual({ ok: true }); // another client
  expect(limiter.take("a", 10_001)).toEqual({ ok: true }); // the first slot aged out
  expect(limiter.take("a", 10_002)).toEqual({ ok: false, retryAfterSeconds: 4 });
  limiter.release("a", 10_001);
  expect(limiter.take("a", 10_003)).toEqual({ ok: true });
});

test("client keys: IPv4-mapped addresses are IPv4, IPv6 counts per /64, proxies only when trusted", () => {
  expect(clientKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
  expect(clientKey("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
  expect(clientKey("::1")).toBe("0:0:0:0::/64");
  const headers = { "x-forwarded-for": "198.51.100.1, 203.0.113.5" };
  const client = (h: Record<string, string>, trustProxy: boolean) =>
    clientKey(clientView("127.0.0.1", h, { trustProxy, deadlineSeconds: 20 }).clientAddress);
  expect(client(headers, false)).toBe("127.0.0.1");
  expect(client(headers, true)).toBe("203.0.113.5");
  expect(client({}, true)).toBe("127.0.0.1");
  expect(clientView("127.0.0.1", headers)).toEqual({ clientAddress: "127.0.0.1" }); // no proxy settings: none trusted
});

test("X-Request-Start: late past the deadline, in time before it, ignored when malformed or untrusted", () => {
  const now = Date.parse("2026-11-25T10:00:00Z");
  const started = (secondsAgo: number) => ({ "x-request-start": `t=${((now - secondsAgo * 1000) / 1000).toFixed(3)}` });
  expect(pastDeadline(started(25), 20, now)).toBe(
    "it reached the receiver 25 s after the proxy received it (deadline 20 s)",
  );
  expect(pastDeadline(started(20), 20, now)).toBeUndefined();
  expect(pastDeadline({ "x-request-start": "t=yesterday" }, 20, now)).toBeUndefined();
  expect(pastDeadline({}, 20, now)).toBeUndefined();
  // Through the edge, against the clock.
  const tenMinutesAgo = { "x-request-start": `t=${((Date.now() - 600_000) / 1000).toFixed(3)}` };
  const view = (trustProxy: boolean) => clientView("127.0.0.1", tenMinutesAgo, { trustProxy, deadlineSeconds: 20 });
  expect(view(false).pastDeadline).toBeUndefined();
  expect(view(true).pastDeadline?.()).toMatch(/^it reached the receiver 600(\.\d)? s after/);
});

test("same origin is recognised with or without a default port; other hosts are not", () => {
  const config = loadConfig({ ENQUIRY_ALLOWED_ORIGINS: "https://allowed.example" });
  expect(isCrossSite({ origin: "https://cyrus.example", host: "cyrus.example:443" }, config)).toBe(false);
  expect(isCrossSite({ origin: "https://cyrus.example:8443", host: "cyrus.example:8443" }, config)).toBe(false);
  expect(isCrossSite({ origin: "https://cyrus.example", host: "other.example" }, config)).toBe(true);
  const forwarded = { origin: "https://cyrus.example", host: "backend:3000", "x-forwarded-host": "cyrus.example" };
  const viaProxy = (trustProxy: boolean) =>
    isCrossSite(forwarded, config, clientView("127.0.0.1", forwarded, { trustProxy, deadlineSeconds: 20 }).hosts);
  expect(isCrossSite(forwarded, config)).toBe(true);
  expect(viaProxy(false)).toBe(true);
  expect(viaProxy(true)).toBe(false);
});

test("validation is a pure function returning the cleaned enquiry or the field errors", () => {
  expect(validateEnquiry({ name: " A ", email: "a@b.co", message: "m", extra: 1 })).toEqual({
    ok: true,
    enquiry: { name: "A", phone: "", email: "a@b.co", message: "m" },
  });
  expect(validateEnquiry({ name: "A", email: "a@b.co", message: "m", phone: "12ab" })).toEqual({
    ok: false,
    fields: { phone: "may contain only digits, spaces and + - ( )" },
  });
  expect(validateEnquiry({ name: "A", email: "அ@உதாரணம்.இந்தியா", message: "m" }).ok).toBe(true);
  expect(validateEnquiry({ name: "\ud800", email: "a@b.co", message: "m" })).toEqual({
    ok: false,
    fields: { name: "must not contain control characters" },
  });
});

test("header text is flattened to one line", () => {
  expect(singleLine(" Eve\r\nBcc: x@y.z\u2028X-A: 1\t\u0000end ")).toBe("Eve Bcc: x@y.z X-A: 1 end");
});

test("the shared receiver is made once per process, from the environment at run time", async () => {
  const holder = globalThis as Record<symbol, unknown>;
  const key = Symbol.for("cyrus.enquiry-receiver");
  const saved = { ...process.env };
  const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  const info = jest.spyOn(console, "info").mockImplementation(() => undefined);
  try {
    delete holder[key];
    const dir = tempDir();
    process.env.ENQUIRY_DATA_DIR = dir;
    delete process.env.SMTP_URL;
    delete process.env.ENQUIRY_TO;
    const first = sharedReceiver();
    expect(sharedReceiver()).toBe(first);
    expect(first.config.dataDir).toBe(dir);
    expect(warn.mock.calls).toEqual([["enquiries will be stored only: SMTP_URL and ENQUIRY_TO are not set"]]);
    await first.store.ready();
    await first.close();
  } finally {
    delete holder[key];
    process.env = saved;
    warn.mockRestore();
    info.mockRestore();
  }
});
