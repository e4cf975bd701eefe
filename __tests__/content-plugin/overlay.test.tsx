/**
 * The overlay in the browser (jsdom): given problems, a panel headed "Content check: N problems in
 * data/" with each problem's place and message; given none, no overlay. Fed by the develop server's
 * event stream, it follows the problems live, and a hidden overlay comes back on the next change; once
 * fixed, a notice says the page is updating until Gatsby's new data arrives.
 */
import { fireEvent, within } from "@testing-library/react";
import type { ContentProblem } from "../../src/node/content/problems";
import { OVERLAY_ID, heldBackText, renderOverlay } from "../../plugins/gatsby-plugin-cyrus-content/src/overlay";
import { listenForProblems } from "../../plugins/gatsby-plugin-cyrus-content/src/overlay-client";
import { EVENTS_PATH } from "../../plugins/gatsby-plugin-cyrus-content/src/endpoints";
import { typo } from "./support/problems";

/** Gatsby's develop event bus is a mitt; a minimal one. */
function mitt() {
  const handlers = new Map<string, Set<() => void>>();
  return {
    on: (type: string, handler: () => void) => void handlers.set(type, (handlers.get(type) ?? new Set()).add(handler)),
    off: (type: string, handler: () => void) => void handlers.get(type)?.delete(handler),
    emit: (type: string) => [...(handlers.get(type) ?? [])].forEach((handler) => handler()),
  };
}

const syntax: ContentProblem = {
  file: "data/home/home.yaml",
  line: 3,
  column: 2,
  message: "YAML syntax error: bad indentation",
};

const overlay = () => document.getElementById(OVERLAY_ID);
/** The overlay's content, in its shadow root. */
const inside = () => within(overlay()!.shadowRoot as unknown as HTMLElement);

afterEach(() => overlay()?.remove());

describe("renderOverlay", () => {
  test("given problems: a dialog headed with their number, each with its place, field and message", () => {
    renderOverlay(document, [typo, syntax]);
    const dialog = inside().getByRole("dialog");
    expect(dialog).toHaveAttribute("aria-modal", "false");
    expect(dialog).toHaveAttribute("aria-labelledby", "title");
    expect(inside().getByRole("heading", { level: 2 })).toHaveTextContent("Content check: 2 problems in data/");
    const items = inside().getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      'data/services/a.yaml:6:1, field "titel"is not a known field: check its spelling',
      "data/home/home.yaml:3:2YAML syntax error: bad indentation",
    ]);
    expect(overlay()!.shadowRoot!.querySelector("style")?.textContent).toMatch(/position: fixed/);
  });

  test("says which files the site shows at their last good version, and which it leaves out", () => {
    renderOverlay(
      document,
      [typo, syntax],
      [
        { file: typo.file, lastGood: true },
        { file: syntax.file, lastGood: true },
        { file: "data/services/new.yaml", lastGood: false },
      ],
    );
    expect(inside().getByText(/^Fix each one/)).toHaveTextContent(
      "Fix each one in its file and save: the site follows at once. Until then, the site shows the last good version of data/services/a.yaml and data/home/home.yaml. data/services/new.yaml is left out until fixed (new).",
    );
    expect(heldBackText([])).toBe("");
  });

  test("one problem: the heading says so in the singular", () => {
    renderOverlay(document, [typo]);
    expect(inside().getByRole("heading")).toHaveTextContent("Content check: 1 problem in data/");
  });

  test("given none: no overlay, and one shown before is removed", () => {
    renderOverlay(document, []);
    expect(overlay()).toBeNull();
    renderOverlay(document, [typo]);
    renderOverlay(document, []);
    expect(overlay()).toBeNull();
  });

  test("new problems replace the ones shown", () => {
    renderOverlay(document, [typo, syntax]);
    renderOverlay(document, [syntax]);
    expect(document.querySelectorAll(`#${OVERLAY_ID}`)).toHaveLength(1);
    expect(inside().getAllByRole("listitem")).toHaveLength(1);
  });

  test("warnings alone: a panel headed with their number, each with its place, field and message", () => {
    renderOverlay(document, [], [], [typo]);
    expect(inside().getByRole("heading", { level: 2 })).toHaveTextContent("Content check: 1 warning in data/");
    expect(inside().getByText(/^The site still builds/)).toBeInTheDocument();
    expect(
      inside()
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(['data/services/a.yaml:6:1, field "titel"is not a known field: check its spelling']);
  });

  test("problems and warnings: the problems first, then the warnings under their own heading", () => {
    renderOverlay(document, [syntax], [], [typo, typo]);
    expect(inside().getByRole("heading", { level: 2 })).toHaveTextContent("Content check: 1 problem in data/");
    expect(inside().getByRole("heading", { level: 3 })).toHaveTextContent("and 2 warnings");
    expect(inside().getAllByRole("listitem")).toHaveLength(3);
  });

  test("its button hides it", () => {
    renderOverlay(document, [typo]);
    fireEvent.click(inside().getByRole("button", { name: "Hide the content check until the next change" }));
    expect(overlay()).toBeNull();
  });
});

describe("listenForProblems", () => {
  /** A stand-in for EventSource: the test sends the server's messages. */
  class FakeSource extends EventTarget {
    static last: FakeSource;
    constructor(readonly url: string) {
      super();
      FakeSource.last = this;
    }
    send(problems: ContentProblem[], warnings: ContentProblem[] = []) {
      const heldBack = problems.map((p) => ({ file: p.file, lastGood: true }));
      this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify({ problems, heldBack, warnings }) }));
    }
  }

  test("follows the stream: shown, hidden by the button until the next change, removed when fixed", () => {
    listenForProblems(document, FakeSource as unknown as typeof EventSource);
    const source = FakeSource.last;
    expect(source.url).toBe(EVENTS_PATH);

    source.send([typo]);
    expect(inside().getByRole("heading")).toHaveTextContent("Content check: 1 problem in data/");
    expect(inside().getByText(/last good version of data\/services\/a\.yaml\./)).toBeInTheDocument();

    fireEvent.click(inside().getByRole("button"));
    source.send([typo]); // the same problems again (a reconnection): it stays hidden
    expect(overlay()).toBeNull();

    source.send([typo, syntax]);
    expect(inside().getByRole("heading")).toHaveTextContent("Content check: 2 problems in data/");

    source.send([]); // fixed: the panel goes (the notice that follows is the next test's)
    expect(inside().queryByRole("dialog")).toBeNull();
  });

  test("once fixed, says the page is updating until Gatsby's new data arrives (or at most 15 s)", () => {
    jest.useFakeTimers();
    try {
      const emitter = mitt();
      listenForProblems(document, FakeSource as unknown as typeof EventSource, () => emitter);
      const source = FakeSource.last;
      source.send([]); // no problems from the start: nothing to update
      expect(overlay()).toBeNull();

      source.send([typo]);
      source.send([]);
      expect(inside().getByRole("status")).toHaveTextContent("No problems left: updating the page…");
      expect(inside().queryByRole("dialog")).toBeNull();
      emitter.emit("staleStaticQueryResult"); // not data yet
      expect(overlay()).not.toBeNull();
      emitter.emit("pageQueryResult");
      expect(overlay()).toBeNull();

      // Data that never comes for this page (the fix changed nothing it shows): gone after 15 s.
      source.send([syntax]);
      source.send([]);
      jest.advanceTimersByTime(14_000);
      expect(inside().getByRole("status")).toBeInTheDocument();
      jest.advanceTimersByTime(1_000);
      expect(overlay()).toBeNull();

      // A new problem while it updates: the overlay takes its place.
      source.send([typo]);
      source.send([]);
      source.send([syntax]);
      expect(inside().getByRole("heading")).toHaveTextContent("Content check: 1 problem in data/");
      emitter.emit("pageQueryResult");
      expect(inside().getByRole("heading")).toHaveTextContent("Content check: 1 problem in data/");

      // Fixed, with a warning left: the notice, then the warning once the page has its new data.
      source.send([], [typo]);
      expect(inside().getByRole("status")).toBeInTheDocument();
      emitter.emit("pageQueryResult");
      expect(inside().getByRole("heading")).toHaveTextContent("Content check: 1 warning in data/");
      // Saved again, shortened: it goes.
      source.send([]);
      expect(overlay()).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });
});
