/**
 * A keyboard walk of a page: pressing Tab from the top reaches every link and control in document
 * order (the order a reader sees them; the Services dropdown opens as focus enters it on desktop) and
 * then leaves the page. At every stop the focused element
 *
 * - shows a focus indicator (an outline of at least 2 px on it or on its card) whose colour has a
 *   contrast of at least 3:1 with what surrounds it (WCAG 2.4.7, 1.4.11);
 * - lies inside the viewport and is covered by nothing, neither at its centre nor at the middle of any
 *   edge: not by the sticky header, not by the floating buttons (WCAG 2.4.11, and stricter: in part).
 *
 * Reduced motion is emulated so that scrolling is instant and measurable and the carousels hold still.
 * routes.spec.ts walks every route in its own test (one page load for both); keyboard.spec.ts the 404 page.
 */
import type { Page } from "@playwright/test";
import { expect, isMapRequest } from "./fixtures";

/**
 * The map frame's page (openstreetmap.org) is out of reach here, and a blocked frame holds no
 * control, so Tab would give its document focus without scrolling it into view, which no visitor
 * sees. For the walk the frame gets a stand-in with two links, as the real embed has zoom controls.
 */
const mapStandIn = `<!doctype html><html lang="en"><title>Map</title>
<body style="margin:0;font:16px sans-serif"><p style="margin:8px"><a href="#in">Zoom in</a> <a href="#out">Zoom out</a></p></body></html>`;

interface Described {
  key: number;
  label: string;
}

interface FocusState extends Described {
  onPage: boolean;
  isFrame: boolean;
  problems: string[];
}

/** Defines window.__kb in the page: the tabbable elements, the expected next stop, the focus state. */
function installProbe(page: Page) {
  return page.evaluate(() => {
    const ids = new WeakMap<Element, number>();
    let counter = 0;
    const keyOf = (el: Element) => {
      if (!ids.has(el)) ids.set(el, ++counter);
      return ids.get(el)!;
    };
    const describe = (el: Element): Described => {
      const name = (
        el.getAttribute("aria-label") ||
        el.getAttribute("title") ||
        el.textContent ||
        el.getAttribute("name") ||
        ""
      )
        .trim()
        .replace(/\s+/g, " ");
      const id = el.id ? `#${el.id}` : "";
      const cls = typeof el.className === "string" && el.className ? `.${el.className.split(" ")[0]}` : "";
      return { key: keyOf(el), label: `<${el.tagName.toLowerCase()}${id}${cls}> "${name.slice(0, 50)}"` };
    };
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, iframe, summary, [tabindex], [contenteditable=""], [contenteditable="true"]';
    const tabbables = () =>
      [...document.querySelectorAll<HTMLElement>(selector)].filter((el) => {
        if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || el.closest("[inert]")) return false;
        if (!el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
      });

    type Rgb = [number, number, number, number];
    const parse = (c: string): Rgb | null => {
      const m = c.match(/rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\)/);
      if (!m) return null;
      const a = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
      return [Number(m[1]), Number(m[2]), Number(m[3]), a];
    };
    const luminance = ([r, g, b]: Rgb) => {
      const lin = (v: number) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const contrast = (a: Rgb, b: Rgb) => {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return (x! + 0.05) / (y! + 0.05);
    };
    /**
     * Colours painted by an element or, where it is transparent, by its ancestors: a solid colour or gradient stops;
     * null for an image.
     */
    const backgroundsOf = (start: Element): Rgb[] | null => {
      for (let n: Element | null = start; n; n = n.parentElement) {
        if (n.tagName === "IMG" || n.tagName === "PICTURE" || n.tagName === "IFRAME") return null;
        const s = getComputedStyle(n);
        if (s.backgroundImage.includes("url(")) return null;
        if (s.backgroundImage.includes("gradient")) {
          const stops = (s.backgroundImage.match(/rgba?\([^)]*\)/g) ?? [])
            .map(parse)
            .filter((c): c is Rgb => c !== null);
          if (stops.length) return stops;
        }
        const bg = parse(s.backgroundColor);
        if (bg && bg[3] >= 0.5) return [bg];
      }
      return [[255, 255, 255, 1]];
    };
    /** What is painted at a point of the page, ignoring `skip` and what is inside it. */
    const backgroundsAt = (x: number, y: number, skip: Element): Rgb[] | null => {
      const hit = document.elementsFromPoint(x, y).find((e) => !skip.contains(e));
      return backgroundsOf(hit ?? document.documentElement);
    };

    const state = async (): Promise<FocusState> => {
      // Let scroll-driven state (the floating buttons) settle: two frames.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const el = document.activeElement;
      if (!el || el === document.body || el === document.documentElement)
        return { key: 0, label: "(page)", onPage: false, isFrame: false, problems: [] };
      const problems: string[] = [];
      const r = el.getBoundingClientRect();
      const vw = document.documentElement.clientWidth;
      const vh = window.innerHeight;

      // Focus inside a frame (the map) is on a control of the frame's own document, which draws its
      // indicator; here the frame must come into view uncovered.
      const isFrame = el.tagName === "IFRAME";
      if (!isFrame && !el.matches(":focus-visible")) problems.push("does not match :focus-visible");
      // The indicator: an outline on the element or on a near ancestor (a card that shows its link's focus).
      let ring: Element | null = null;
      for (
        let n: Element | null = el, depth = 0;
        n && depth < 3 && !ring && !isFrame;
        n = n.parentElement, depth += 1
      ) {
        const s = getComputedStyle(n);
        if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) ring = n;
      }
      if (!ring && !isFrame) problems.push("no visible focus indicator (outline of 2 px or more)");
      else if (ring) {
        const s = getComputedStyle(ring);
        const colour = parse(s.outlineColor);
        const rr = ring.getBoundingClientRect();
        const out = parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth) + 2;
        // An inset ring (negative offset) is drawn over the element's own background.
        const cy = Math.min(Math.max(rr.top + rr.height / 2, 1), vh - 1);
        const cx = Math.min(Math.max(rr.left + rr.width / 2, 1), vw - 1);
        const probes: Array<[number, number]> = [
          [rr.left - out, cy],
          [rr.right + out, cy],
          [cx, rr.top - out],
          [cx, rr.bottom + out],
        ];
        const point = probes.find(([x, y]) => x >= 0 && x < vw && y >= 0 && y < vh);
        const inset = parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth) <= 0;
        const around = inset ? backgroundsOf(ring) : point ? backgroundsAt(point[0], point[1], ring) : null;
        if (colour && around) {
          const worst = Math.min(...around.map((bg) => contrast(colour, bg)));
          if (worst < 3)
            problems.push(
              `focus outline ${s.outlineColor} has contrast ${worst.toFixed(2)}:1 with its surroundings (needs 3:1)`,
            );
        }
      }

      // Inside the viewport, when it fits there. A frame (the map) is a container whose own document
      // has the focus: it must show, at least in part; where inside it is the frame's business.
      if (isFrame) {
        if (r.bottom <= 0 || r.top >= vh)
          problems.push(`not in the viewport (top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)} of ${vh})`);
      } else {
        if (r.height <= vh && (r.top < -0.5 || r.bottom > vh + 0.5))
          problems.push(`outside the viewport (top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)} of ${vh})`);
        if (r.width <= vw && (r.left < -0.5 || r.right > vw + 0.5))
          problems.push(
            `outside the viewport horizontally (left ${Math.round(r.left)}, right ${Math.round(r.right)} of ${vw})`,
          );
      }
      // Not covered: what is on top at its centre and at the middle of each edge (just inside; corners
      // are left out, as rounded controls do not fill them) must be the element itself.
      const edge = Math.min(3, r.width / 4, r.height / 4);
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const points: Array<[number, number]> = [
        [cx, cy],
        [cx, r.top + edge],
        [cx, r.bottom - edge],
        [r.left + edge, cy],
        [r.right - edge, cy],
      ];
      const covers = new Set<string>();
      for (const [x, y] of points) {
        if (x < 0 || y < 0 || x >= vw || y >= vh) continue;
        const top = document.elementFromPoint(x, y);
        // The element itself, a child, or an ancestor showing through (a point outside its shape).
        if (top && top !== el && !el.contains(top) && !top.contains(el)) {
          const header = top.closest("header");
          const fixed = top.closest('[class*="floating"]');
          covers.add(
            header
              ? `the sticky header (${describe(top).label})`
              : fixed
                ? `a floating button (${describe(top).label})`
                : describe(top).label,
          );
        }
      }
      if (covers.size) problems.push(`covered by ${[...covers].join(", ")}`);
      return { ...describe(el), onPage: true, isFrame, problems };
    };

    const next = (): Described | null => {
      const list = tabbables();
      const current = document.activeElement;
      const at = current ? list.indexOf(current as HTMLElement) : -1;
      const following = at < 0 ? list[0] : list[at + 1];
      return following ? describe(following) : null;
    };
    // One round trip per Tab press: the focus now, and the control the next Tab should reach.
    const step = async () => ({ state: await state(), next: next() });
    (window as unknown as { __kb: unknown }).__kb = { next, step };
  });
}

interface Step {
  state: FocusState;
  next: Described | null;
}
interface Probe {
  __kb: { next: () => Described | null; step: () => Promise<Step> };
}
const kb = {
  next: (page: Page) => page.evaluate(() => (window as unknown as Probe).__kb.next()),
  step: (page: Page) => page.evaluate(() => (window as unknown as Probe).__kb.step()),
};

/**
 * Loads every frame's document (the map's stand-in), then goes back to the top of the page. The map
 * frame loads lazily, as it nears the viewport: on a busy machine Tab could reach it before its
 * document arrived and pass through an empty frame, leaving the page (seen once in CI at 375 px).
 */
async function loadFrames(page: Page) {
  for (const frame of await page.locator("iframe").all()) {
    await frame.scrollIntoViewIfNeeded();
    await expect(frame.contentFrame().getByRole("link").first()).toBeAttached();
  }
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        window.scrollTo({ top: 0, behavior: "instant" });
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );
}

/** The widths at which every page is walked with the keyboard. */
export const walkWidths = [375, 1280];

/**
 * What the walk needs before the page loads: reduced motion (the carousel reads it when it mounts) and
 * the map frame's stand-in.
 */
export async function prepareKeyboardWalk(page: Page) {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.route(
    (url) => isMapRequest(url.href),
    (r) => r.fulfill({ contentType: "text/html", body: mapStandIn }),
  );
}

/** Walks the loaded page (prepared by prepareKeyboardWalk) with Tab from the top, and checks every stop. */
export async function expectKeyboardWalk(page: Page, name: string) {
  await loadFrames(page);
  await installProbe(page);
  // From the top of the page: the first Tab reaches the first control.
  const first = await kb.next(page);
  let expected = first;
  const visited: string[] = [];
  const problems: string[] = [];

  let done = false;
  for (let step = 1; step <= 250 && !done; step += 1) {
    await page.keyboard.press("Tab");
    let { state, next } = await kb.step(page);
    // Inside a frame (the map), Tab moves through the frame's own document first.
    for (let inFrame = 0; state.isFrame && visited.at(-1) === state.label && inFrame < 20; inFrame += 1) {
      await page.keyboard.press("Tab");
      ({ state, next } = await kb.step(page));
    }
    if (expected === null) {
      // After the last control, focus leaves the page (or wraps to the first control).
      expect(
        !state.onPage || state.key === first?.key,
        `after the last control, Tab left the page (got ${state.label})`,
      ).toBe(true);
      done = true;
      break;
    }
    expect(
      state.label,
      `Tab #${step} after ${visited.at(-1) ?? "the start"} goes to the next control in document order`,
    ).toBe(expected.label);
    expect(state.key, `Tab #${step}: ${expected.label}`).toBe(expected.key);
    visited.push(state.label);
    for (const problem of state.problems) problems.push(`Tab #${step} ${state.label}: ${problem}`);
    expected = next;
  }
  expect(done, `the walk ended within 250 Tab presses (visited ${visited.length})`).toBe(true);
  expect(visited.length, "the walk reached the shell's controls").toBeGreaterThanOrEqual(5);
  expect(problems, `focus problems on ${name}:\n${problems.join("\n")}`).toEqual([]);
}
