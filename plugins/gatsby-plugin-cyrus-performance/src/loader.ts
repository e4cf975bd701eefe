/**
 * The inline loader of Gatsby's first scripts, as the browser runs it. This file is never bundled:
 * after each build src/compile-loader.ts minifies it with esbuild into the one function every page
 * holds, `<script id="gatsby-scripts-after-paint">(function …).apply(null,[sources])</script>`
 * (src/scripts-after-paint.ts explains why). So it must stay one self-contained function: no
 * imports and nothing else at run time (types are erased), or compile-loader.ts stops the build.
 * It runs before any of Gatsby's scripts: plain DOM calls only (esbuild lowers the syntax to ES2015).
 *
 * In order: after the first animation frame (the first paint) and a task, or at the load event if
 * that comes first (a tab opened in the background paints no frames), it preloads the scripts one
 * per task, so that they download together (starting a fetch costs several ms of main thread in
 * Lighthouse's traces); then it adds them one after another, each once the one before has loaded
 * or failed, in a task of its own.
 */

/** Adds `sources` (the webpack runtime first, Gatsby's app last) after the first paint. */
export default function loadScriptsAfterPaint(sources: readonly string[]): void {
  let started = false;

  function addScript(index: number): void {
    if (index >= sources.length) return;
    const script = document.createElement("script");
    script.src = sources[index] as string;
    script.async = true;
    // A failed script does not stop the rest: webpack reports the missing chunk.
    script.onload = script.onerror = () => {
      setTimeout(() => addScript(index + 1), 0);
    };
    document.body.appendChild(script);
  }

  function preload(index: number): void {
    if (index >= sources.length) return addScript(0);
    const link = document.createElement("link");
    link.rel = "preload";
    link.as = "script";
    link.href = sources[index] as string;
    document.head.appendChild(link);
    setTimeout(() => preload(index + 1), 0);
  }

  function start(): void {
    if (started) return;
    started = true;
    preload(0);
  }

  if ((window as Partial<Window>).requestAnimationFrame) requestAnimationFrame(() => setTimeout(start, 0));
  else setTimeout(start, 0);
  window.addEventListener("load", start);
}
