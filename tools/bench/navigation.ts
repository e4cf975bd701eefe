/**
 * Click-to-LCP: in Chromium (Debian's, driven by Puppeteer), with the CPU slowed 4x through CDP's
 * Emulation.setCPUThrottlingRate, the time from a click on a main-menu link to the next page's
 * Largest Contentful Paint. The site is served by the caller (`gatsby serve`, gzip), on loopback, with
 * no network throttling: this measures the main thread's part of a navigation, not the network's.
 *
 * Puppeteer, not Playwright: Chromium refuses to prerender while a DevTools client that does not
 * attach through the tab's target is connected ("PrerenderingDisabledByDevTools", the check in
 * content/browser/devtools/devtools_instrumentation.cc), and Playwright's sessions are such clients;
 * Puppeteer's (since v22) attach through the tab, so the speculation rules act as for a visitor.
 *
 * Each run is a new browser context (empty cache): the first page is loaded, left for a second after
 * its load event (as a visitor would read it; Gatsby's runtime hydrates and prefetches then, and the
 * browser acts on the speculation rules), then the link is clicked (the pointer moves onto the link,
 * presses, releases, as a tap: at once, or after `pressMs`, as a finger that stays on the glass for a
 * moment), or, with `hoverMs`, the pointer rests on the link that long first, as a mouse does before a
 * click (the click time is still the click's, at the release).
 *
 * What is measured, by the kind of navigation seen:
 * - "document" (a new page loaded): the new page's `performance.timeOrigin + LCP startTime` minus
 *   the click's time (`performance.timeOrigin + event.timeStamp` of the click on the old page; both
 *   are times of the one browser clock, so they can be subtracted);
 * - "prerendered" (the new page was prerendered and activated): as above, but an LCP before
 *   activation counts as the activation (`max(LCP, activationStart)`), as Chrome's own metrics do;
 * - "soft" (Gatsby's client-side router: same document, new URL): LCP is not reported again after a
 *   soft navigation (and stops at the first input anyway), so this is the time from the click to the
 *   first frame painted once the new page's `<main>` (or its heading) is in the DOM and its images in
 *   view are decoded (a requestAnimationFrame and the task after it): what LCP measures on a new page.
 */
import type { Browser, CDPSession, Target } from "puppeteer-core";
import { chromePath, chromiumArgs } from "../chromium";
import type { NavigationResult, NavigationRun } from "./budgets";

/** The clicks measured: a menu link on each of a page with and pages without behaviour. */
export const DEFAULT_CLICKS: ReadonlyArray<{ from: string; to: string }> = [
  { from: "/home", to: "/aboutus" },
  { from: "/aboutus", to: "/contact" },
  { from: "/contact", to: "/whycyrus" },
  { from: "/whycyrus", to: "/home" },
];

const CPU_THROTTLING = 4;
/** Per step: a page that has not loaded or painted by then is a failed run. */
const STEP_TIMEOUT_MS = 30_000;
const READ_PAUSE_MS = 1000;

const medianOf = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
};

/**
 * tsx compiles this file with esbuild's keepNames, which wraps each named inner function in a call of
 * its `__name` helper; the functions handed to page.evaluate run in the page, where that helper does
 * not exist ("ReferenceError: __name is not defined"), so the page gets a no-op one first.
 */
const KEEP_NAMES_SHIM = "globalThis.__name ??= (fn) => fn";


/**
 * On the old page: reports the click's time (the browser clock's epoch milliseconds) to the benchmark
 * at once, before the page may be gone, and, for a soft navigation, the first frame after the new
 * page's <main> replaced the old one.
 */
const CLICK_LISTENER = () => {
  addEventListener(
    "click",
    (event) => {
      console.debug(`__benchClick ${performance.timeOrigin + event.timeStamp}`);
      const startPath = location.pathname;
      const startMain = document.querySelector("main");
      const startHeading = startMain?.querySelector("h1")?.textContent;
      const observer = new MutationObserver(() => {
        const main = document.querySelector("main");
        // React may keep the <main> element and change what is inside it: its heading tells.
        const replaced = main !== startMain || main?.querySelector("h1")?.textContent !== startHeading;
        if (location.pathname === startPath || !main || !replaced) return;
        observer.disconnect();
        // Like LCP, which waits for an image to be painted: the images of the new <main> in view are
        // decoded first (an image that never loads counts as it fails).
        const inView = [...main.querySelectorAll("img")].filter((img) => {
          const r = img.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
        });
        void Promise.all(inView.map((img) => img.decode().catch(() => undefined))).then(() =>
          requestAnimationFrame(() =>
            setTimeout(() => console.debug(`__benchSoftPaint ${performance.timeOrigin + performance.now()}`), 0),
          ),
        );
      });
      observer.observe(document.documentElement, { childList: true, subtree: true });
      // Bounded: nothing is watched for longer than a step may take.
      setTimeout(() => observer.disconnect(), 30_000);
    },
    { capture: true, once: true },
  );
};

interface NewPage {
  timeOrigin: number;
  lcp: number | null;
  activationStart: number;
}

/** On the new page: its time origin, its activation (0 unless prerendered) and its last LCP entry. */
const READ_LCP = (timeoutMs: number) =>
  new Promise<NewPage>((resolve) => {
    const nav = performance.getEntriesByType("navigation")[0] as
      | (PerformanceNavigationTiming & { activationStart?: number })
      | undefined;
    let lcp: number | null = null;
    const done = () => resolve({ timeOrigin: performance.timeOrigin, lcp, activationStart: nav?.activationStart ?? 0 });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) lcp = entry.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
    // LCP entries arrive after their paint: wait for the load event, then two frames; at most timeoutMs.
    // A prerendered page is read once it is activated (the one the click showed).
    const settle = () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100)));
    const loaded = () => {
      if (document.readyState === "complete") settle();
      else addEventListener("load", settle, { once: true });
    };
    if ((document as Document & { prerendering?: boolean }).prerendering)
      addEventListener("prerenderingchange", loaded, { once: true });
    else loaded();
    setTimeout(done, timeoutMs);
  });

/** Resolves with the first value a callback receives, or null after timeoutMs. */
function firstValue<T>(timeoutMs: number) {
  let resolve!: (value: T | null) => void;
  const promise = new Promise<T | null>((r) => (resolve = r));
  const timer = setTimeout(() => resolve(null), timeoutMs);
  return {
    promise,
    set: (value: T) => {
      clearTimeout(timer);
      resolve(value);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Evaluates a function of this file in a page through a CDP session (with the keepNames shim first). */
async function evaluateIn<T>(cdp: CDPSession, fn: (arg: number) => unknown, arg: number): Promise<T> {
  const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
    expression: `${KEEP_NAMES_SHIM}; (${fn.toString()})(${arg})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  return result.value as T;
}

/**
 * The tab's page once it shows `url` (after a prerendered page's activation, a target of its own): a
 * CDP session of it. A prerendering page for the same URL is read only after its activation (READ_LCP).
 */
async function pageShowing(targets: () => Target[], url: string): Promise<CDPSession> {
  const until = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < until) {
    const target = targets().find((t) => t.type() === "page" && t.url() === url);
    if (target) return target.createCDPSession();
    await sleep(25);
  }
  throw new Error(`no page showed ${url} within ${STEP_TIMEOUT_MS} ms`);
}

/** How the pointer acts before the click: how long it rests on the link, how long it is held down. */
export interface PointerTiming {
  hoverMs: number;
  pressMs: number;
}

async function oneClick(
  browser: Browser,
  origin: string,
  from: string,
  to: string,
  { hoverMs, pressMs }: PointerTiming,
): Promise<NavigationRun> {
  const context = await browser.createBrowserContext();
  try {
    const click = firstValue<number>(STEP_TIMEOUT_MS);
    const softPaint = firstValue<number>(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    // Every page is slowed alike, a prerendered one (a target of its own) included. Only pages made
    // after this one: a session of this kind on the clicking page itself would stop all prerendering.
    context.on("targetcreated", (target: Target) => {
      if (target.type() !== "page" || target === page.target()) return;
      void target
        .createCDPSession()
        .then((session) => session.send("Emulation.setCPUThrottlingRate", { rate: CPU_THROTTLING }))
        .catch(() => undefined);
    });
    await page.setViewport({ width: 1366, height: 768 });
    // The old page reports on its console, not through exposed functions: Puppeteer adds those
    // again to a prerendered page as it is activated, which can fail as the old frame goes.
    page.on("console", (message) => {
      const [name, at] = message.text().split(" ");
      if (name === "__benchClick") click.set(Number(at));
      if (name === "__benchSoftPaint") softPaint.set(Number(at));
    });
    await page.emulateCPUThrottling(CPU_THROTTLING);
    await page.goto(`${origin}${from}`, { waitUntil: "load" });
    await sleep(READ_PAUSE_MS);
    const oldOrigin = await page.evaluate(() => performance.timeOrigin);
    await page.evaluate(KEEP_NAMES_SHIM);
    await page.evaluate(CLICK_LISTENER);
    const link = await page.waitForSelector(`header nav a[href="${to}"]`, { visible: true });
    if (!link) throw new Error(`no menu link to ${to} on ${from}`);
    if (hoverMs > 0) {
      // A pointer resting on the link first: what the speculation rules act on (the menu's prerender
      // after a short hover, any link's prefetch after 200 ms).
      await link.hover();
      await sleep(hoverMs);
    }
    // The rules act on the press too: a press held for a moment gives the browser that much more time.
    await link.click({ delay: pressMs });
    const clickAt = await click.promise;
    if (clickAt === null) throw new Error("the click was not seen on the page");
    const cdp = await pageShowing(() => context.targets(), `${origin}${to}`);
    try {
      const newOrigin = await evaluateIn<number>(cdp, () => performance.timeOrigin, 0);
      if (newOrigin === oldOrigin) {
        const paintAt = await softPaint.promise;
        if (paintAt === null) throw new Error(`no new <main> painted within ${STEP_TIMEOUT_MS} ms`);
        return { ms: Math.round(paintAt - clickAt), kind: "soft" };
      }
      const next = await evaluateIn<NewPage>(cdp, READ_LCP, STEP_TIMEOUT_MS);
      if (next.lcp === null) throw new Error("the new page reported no largest-contentful-paint");
      const prerendered = next.activationStart > 0;
      const lcpAt = next.timeOrigin + Math.max(next.lcp, next.activationStart);
      return { ms: Math.round(lcpAt - clickAt), kind: prerendered ? "prerendered" : "document" };
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  } finally {
    await context.close();
  }
}

/**
 * `runs` clicks (each in a new context) for each pair, in turns (pair 1, pair 2, …, then again), so
 * that a change in the machine's load falls on all alike; with `beforeOrigin` (an earlier build,
 * served the same way), each click there right before the same click here. A failed run is reported,
 * never retried.
 */
export async function clickToLcp(
  origin: string,
  runs: number,
  clicks: ReadonlyArray<{ from: string; to: string }> = DEFAULT_CLICKS,
  pointer: PointerTiming = { hoverMs: 0, pressMs: 0 },
  log: (line: string) => void = console.log,
  beforeOrigin?: string,
): Promise<{
  runsPerClick: number;
  cpuThrottling: number;
  hoverMs: number;
  pressMs: number;
  clicks: NavigationResult[];
  before?: NavigationResult[];
}> {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({ executablePath: chromePath, args: [...chromiumArgs], headless: true });
  const fresh = () => clicks.map(({ from, to }): NavigationResult => ({ from, to, medianMs: null, kinds: {}, runs: [] }));
  const sites = [
    ...(beforeOrigin ? [{ label: "before", origin: beforeOrigin, results: fresh() }] : []),
    { label: "", origin, results: fresh() },
  ];
  try {
    for (let i = 1; i <= runs; i += 1) {
      for (const [c] of clicks.entries()) {
        for (const site of sites) {
          const result = site.results[c]!;
          let run: NavigationRun;
          try {
            run = await oneClick(browser, site.origin, result.from, result.to, pointer);
          } catch (error) {
            run = { ms: null, kind: "failed", error: error instanceof Error ? error.message.split("\n")[0] : String(error) };
          }
          result.runs.push(run);
          const label = site.label ? ` (${site.label})` : "";
          log(`  ${result.from} → ${result.to}${label} #${i}: ${run.ms ?? "–"} ms (${run.kind}${run.error ? `: ${run.error}` : ""})`);
        }
      }
    }
  } finally {
    await browser.close();
  }
  for (const result of sites.flatMap((site) => site.results)) {
    result.medianMs = medianOf(result.runs.flatMap((r) => (r.ms === null ? [] : [r.ms])));
    for (const run of result.runs) result.kinds[run.kind] = (result.kinds[run.kind] ?? 0) + 1;
  }
  const after = sites.at(-1)!.results;
  return {
    runsPerClick: runs,
    cpuThrottling: CPU_THROTTLING,
    ...pointer,
    clicks: after,
    ...(beforeOrigin ? { before: sites[0]!.results } : {}),
  };
}
