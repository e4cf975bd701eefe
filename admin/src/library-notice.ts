/**
 * A refusal in the media library (Delete on a picture an entry shows) is shown inside the library's
 * own window. As one of Decap's notices it sat under the library's dimmed overlay (the notices' layer
 * is 9999, the overlay's 99999), in the part of the page react-modal hides from screen readers while
 * the library is open (aria-hidden on #nc-root), and stayed for ten seconds over whatever screen came
 * next. Inside the window it is above the overlay, announced (role=alert), and it goes with the
 * window, which react-modal removes from the page when it closes.
 */

export const LIBRARY_NOTICE_CLASS = "studio-library-notice";

/** Static rules for the notice (Decap's own styles are generated): dark words on a light band. */
export const LIBRARY_NOTICE_STYLE = `
.${LIBRARY_NOTICE_CLASS} { position: absolute; left: 20px; right: 20px; bottom: 20px; z-index: 2; display: flex; gap: 12px; align-items: flex-start; margin: 0; padding: 12px 16px; border: 2px solid #9a3412; border-radius: 5px; background: #fff4e0; color: #431407; text-align: left; font-size: 15px; line-height: 1.4; box-shadow: 0 4px 16px rgba(0, 0, 0, 0.35); }
.${LIBRARY_NOTICE_CLASS} p { flex: 1; margin: 0; }
.${LIBRARY_NOTICE_CLASS} button { flex: none; padding: 4px 12px; border: 1px solid #431407; border-radius: 4px; background: #fff; color: #431407; font: inherit; cursor: pointer; }
`;

/** The open library's window (react-modal's dialog, in its portal), if the library is open. */
function libraryWindow(): HTMLElement | undefined {
  const open = [...document.querySelectorAll<HTMLElement>(".ReactModalPortal [role=dialog]")];
  return open.find((element) => element.querySelector("input[type=file]")) ?? open.at(-1);
}

/** Removes the notice, if one is shown (a delete that goes through must not stand under an old refusal). */
export function clearLibraryNotice(): void {
  document.querySelectorAll(`.${LIBRARY_NOTICE_CLASS}`).forEach((notice) => notice.remove());
}

/**
 * Shows the message in the open library's window; false when no library is open (the caller then
 * uses Decap's notices). A new notice replaces the last one, so that it is announced again. An answer
 * is an alert, with OK; what the studio is doing meanwhile ("Checking …") a status, without.
 */
export function showInLibrary(message: string, kind: "alert" | "status" = "alert"): boolean {
  const library = libraryWindow();
  if (!library) return false;
  clearLibraryNotice();
  if (getComputedStyle(library).position === "static") library.style.position = "relative";
  const notice = document.createElement("div");
  notice.className = LIBRARY_NOTICE_CLASS;
  notice.setAttribute("role", kind);
  const words = document.createElement("p");
  words.textContent = message;
  notice.append(words);
  if (kind === "alert") {
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "OK";
    close.addEventListener("click", () => notice.remove());
    notice.append(close);
  }
  library.append(notice);
  return true;
}
