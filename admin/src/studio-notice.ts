/**
 * The studio's own notice, a band at the top of the window under Decap's toolbar, for what a save or a
 * delete answers: where the editor is looking, whatever part of the long form is in view. Decap's
 * notices (react-toastify) go by themselves after a few seconds, sit at the right edge, and said a
 * refusal after "Failed to persist entry: "; this one says the studio's plain words and stays until it
 * is closed (OK), another save or delete is asked for, or the editor leaves the screen.
 *
 * Two kinds: an answer (role=alert: "Not saved: Slug: …", "… remove it there first, then delete it.")
 * and a state (role=status: "Checking …", the moment a delete is pressed). The status is one element
 * kept on the page, empty and unseen when there is nothing to say, so that screen readers, which
 * announce changes to a live region they already know, announce it; each answer is a new element,
 * which an alert is announced as.
 */

export const NOTICE_CLASS = "studio-notice";

/**
 * Static rules (Decap's own styles are generated): dark words on a light band, above the form and the
 * preview, under Decap's toolbar (z-index 300), whose menus (Publish's) open over it.
 */
export const NOTICE_STYLE = `
.${NOTICE_CLASS} { position: fixed; top: 74px; left: 50%; transform: translateX(-50%); z-index: 299; box-sizing: border-box; width: min(760px, calc(100vw - 24px)); max-height: calc(100vh - 96px); overflow: auto; display: flex; gap: 12px; align-items: flex-start; margin: 0; padding: 12px 16px; border: 2px solid #9a3412; border-radius: 5px; background: #fff4e0; color: #431407; font-size: 15px; line-height: 1.4; text-align: left; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.3); }
.${NOTICE_CLASS}[role=status] { border-color: #1b3c5c; background: #e8f1fb; color: #1b3c5c; }
.${NOTICE_CLASS}[role=status]:empty { padding: 0; border: 0; box-shadow: none; }
.${NOTICE_CLASS} div { flex: 1; }
.${NOTICE_CLASS} p { margin: 0; }
.${NOTICE_CLASS} p + p { margin-top: 6px; }
.${NOTICE_CLASS} button { flex: none; padding: 4px 12px; border: 1px solid #431407; border-radius: 4px; background: #fff; color: #431407; font: inherit; cursor: pointer; }
`;

/**
 * Decap's own notices (react-toastify's coloured theme: "Entry saved", "Entry deleted") wrote white on
 * green (#07bc0c, 2.6:1), yellow and light blue; each colour darkened to reach 4.5:1 with white words.
 */
export const TOAST_STYLE = `
html:root { --toastify-color-info: #2a4f9c; --toastify-color-success: #16692a; --toastify-color-warning: #8a4b00; --toastify-color-error: #b3001f; }
`;

let status: HTMLElement | undefined;

/** The live region for "Checking …", on the page from the start (installNotices). */
function statusRegion(): HTMLElement {
  if (!status || !status.isConnected) {
    status = document.createElement("p");
    status.className = NOTICE_CLASS;
    status.setAttribute("role", "status");
    document.body.append(status);
  }
  return status;
}

/** Says what the studio is doing (role=status), in place of any answer shown. */
export function showStatus(words: string): void {
  clearAnswer();
  statusRegion().textContent = words;
}

/** Shows an answer (role=alert), one paragraph a line, in place of any other notice. */
export function showAnswer(lines: readonly string[]): HTMLElement {
  clearNotice();
  const notice = document.createElement("div");
  notice.className = NOTICE_CLASS;
  notice.setAttribute("role", "alert");
  const words = document.createElement("div");
  for (const line of lines) {
    const paragraph = document.createElement("p");
    paragraph.textContent = line;
    words.append(paragraph);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "OK";
  close.addEventListener("click", () => notice.remove());
  notice.append(words, close);
  document.body.append(notice);
  return notice;
}

function clearAnswer(): void {
  document.querySelectorAll(`.${NOTICE_CLASS}[role=alert]`).forEach((notice) => notice.remove());
}

/** Removes whatever the notice says. */
export function clearNotice(): void {
  clearAnswer();
  if (status) status.textContent = "";
}

/** The status region on the page, and every notice gone when the editor leaves the screen. */
export function installNotices(): void {
  statusRegion();
  window.addEventListener("hashchange", clearNotice);
}
