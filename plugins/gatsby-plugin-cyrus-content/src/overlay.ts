/**
 * The content check's overlay in the browser during `gatsby develop` (never in the production
 * bundle: src/webpack.ts adds the client to the develop bundle only). Gatsby's own overlay has no kind
 * for content errors, so this is a small one of its own: a panel above the page, headed
 * "Content check: N problems in data/", with each problem's place and what to do. It lives in a
 * shadow root, so the site's styles do not reach it, nor its styles the site.
 */
import { placeOf, type ContentProblem } from "../../../src/node/content/problems";
import type { HeldFile } from "./endpoints";

/** The overlay's host element; also how the test of the built site knows none of this is in it. */
export const OVERLAY_ID = "cyrus-content-check-overlay";

export const overlayTitle = (count: number, kind: "problem" | "warning" = "problem"): string =>
  `Content check: ${count} ${count === 1 ? kind : `${kind}s`} in data/`;

/** Under the heading when there are only warnings. */
export const WARNINGS_TEXT =
  "The site still builds, but these do not fit their place well: fix each one in its file and save.";

const STYLE = `
:host { all: initial; }
section {
  position: fixed; top: 0; left: 0; right: 0; z-index: 2147483647;
  max-height: min(70vh, 40rem); overflow: auto; box-sizing: border-box;
  margin: 0; padding: 1rem 1.25rem 1.25rem;
  background: #1b1b1f; color: #f3f3f3; border-top: 6px solid #e0245e;
  box-shadow: 0 0.5rem 2rem rgb(0 0 0 / 45%);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
header { display: flex; align-items: flex-start; justify-content: space-between; gap: 1rem; }
h2 { margin: 0; font-size: 1.2rem; font-weight: 700; color: #ff8fab; }
p { margin: 0.35rem 0 0; color: #d0d0d6; }
ol { margin: 0.75rem 0 0; padding: 0; list-style: none; }
li { padding: 0.6rem 0.75rem; margin-top: 0.5rem; background: #26262c; border-left: 3px solid #e0245e; }
section.warnings { border-top-color: #d29922; }
h3 { margin: 1rem 0 0; font-size: 1rem; color: #f2cc60; }
.warnings h2 { color: #f2cc60; }
li.warning { border-left-color: #d29922; }
.place { display: block; font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #8ecbff; overflow-wrap: anywhere; }
.message { display: block; margin-top: 0.2rem; }
button {
  flex: none; font: inherit; font-size: 0.9rem; cursor: pointer;
  padding: 0.3rem 0.8rem; color: #1b1b1f; background: #f3f3f3; border: 0; border-radius: 4px;
}
button:focus-visible { outline: 3px solid #8ecbff; outline-offset: 2px; }
`;

function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  props: Partial<Record<"id" | "className" | "textContent", string>> = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  Object.assign(el, props);
  el.append(...children);
  return el;
}

/** "a", "a and b", "a, b and c" */
const listed = (items: readonly string[]): string =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/** What the site shows meanwhile: which files are kept at their last good version, which left out. */
export function heldBackText(heldBack: readonly HeldFile[]): string {
  const kept = heldBack.filter((h) => h.lastGood).map((h) => h.file);
  const left = heldBack.filter((h) => !h.lastGood).map((h) => h.file);
  return [
    kept.length > 0 ? `Until then, the site shows the last good version of ${listed(kept)}.` : "",
    left.length > 0 ? `${listed(left)} ${left.length === 1 ? "is" : "are"} left out until fixed (new).` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/** "data/services/x.yaml:5:1, field \"titel\"" */
const placeText = (p: ContentProblem): string => `${placeOf(p)}${p.field ? `, field "${p.field}"` : ""}`;

const items = (doc: Document, problems: readonly ContentProblem[], className = ""): HTMLOListElement =>
  element(
    doc,
    "ol",
    {},
    ...problems.map((p) =>
      element(
        doc,
        "li",
        { className },
        element(doc, "span", { className: "place", textContent: placeText(p) }),
        element(doc, "span", { className: "message", textContent: p.message }),
      ),
    ),
  );

/**
 * Shows `problems` over the page in `doc` (replacing what it showed), with the files held back
 * because of them, and the check's `warnings` (after the problems; alone, in a panel of their own
 * colour), or removes the overlay when there are neither. Returns its host element, if shown.
 */
export function renderOverlay(
  doc: Document,
  problems: readonly ContentProblem[],
  heldBack: readonly HeldFile[] = [],
  warnings: readonly ContentProblem[] = [],
): HTMLElement | undefined {
  doc.getElementById(OVERLAY_ID)?.remove();
  if (problems.length === 0 && warnings.length === 0) return undefined;
  const onlyWarnings = problems.length === 0;

  const host = element(doc, "div", { id: OVERLAY_ID });
  const root = host.attachShadow({ mode: "open" });
  const title = element(doc, "h2", {
    id: "title",
    textContent: onlyWarnings ? overlayTitle(warnings.length, "warning") : overlayTitle(problems.length),
  });
  const hide = element(doc, "button", { textContent: "Hide" });
  hide.type = "button";
  hide.setAttribute("aria-label", "Hide the content check until the next change");
  hide.addEventListener("click", () => host.remove());
  const intro = onlyWarnings
    ? WARNINGS_TEXT
    : `Fix each one in its file and save: the site follows at once. ${heldBackText(heldBack)}`.trim();
  const section = element(
    doc,
    "section",
    { className: onlyWarnings ? "warnings" : "" },
    element(doc, "header", {}, title, hide),
    element(doc, "p", { textContent: intro }),
    ...(onlyWarnings ? [] : [items(doc, problems)]),
    ...(warnings.length > 0 && !onlyWarnings
      ? [
          element(doc, "h3", {
            textContent: `and ${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"}`,
          }),
        ]
      : []),
    ...(warnings.length > 0 ? [items(doc, warnings, "warning")] : []),
  );
  // A non-modal dialog: it names itself by its heading and leaves the focus where the editor had it.
  section.setAttribute("role", "dialog");
  section.setAttribute("aria-modal", "false");
  section.setAttribute("aria-labelledby", "title");
  root.append(element(doc, "style", { textContent: STYLE }), section);
  doc.body.append(host);
  return host;
}
