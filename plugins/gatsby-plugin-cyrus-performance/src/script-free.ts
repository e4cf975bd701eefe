import { isValidElement, type ReactNode } from "react";
import { INTERNALS, internalChanged } from "./internals";

/*
 * A page whose components need nothing in the browser is complete as server HTML: Gatsby's scripts
 * (webpack's runtime, React, its app and router, the page's chunk, and the page data they fetch)
 * would only hydrate what is already there. This leaves them out of such a page while Gatsby writes
 * it (onPreRenderHTML, in the site's gatsby-ssr.tsx), so the HTML never names them: no script, no
 * preload, no page-data or static-query fetch. The page's body is rendered before this runs and is
 * not touched.
 */

/** Gatsby's script slice: `<ServerSliceRenderer sliceId="_gatsby-scripts">`, stitched after the build. */
const SCRIPTS_SLICE_ID = "_gatsby-scripts";
/** Gatsby's inline `window.pagePath=…` script, read by its app alone. */
const PAGE_PATH_SCRIPT_ID = "gatsby-script-loader";

// Script types that are data, not code: kept (JSON-LD for crawlers).
const DATA_SCRIPT_TYPES = new Set(["application/ld+json", "application/json"]);
// Speculation rules replace Gatsby's prefetching on every page (gatsby-ssr.tsx): kept.
const KEPT_SCRIPT_TYPES = new Set([...DATA_SCRIPT_TYPES, "speculationrules"]);
const FETCH_RELS = new Set(["preload", "prefetch", "modulepreload"]);

interface Props {
  id?: string;
  type?: string;
  rel?: string;
  as?: string;
  href?: string;
  sliceId?: string;
}

const propsOf = (node: ReactNode): Props | null => (isValidElement(node) ? (node.props as Props) : null);

/** A script, or the slice of scripts, a page without behaviour leaves out. */
function isScript(node: ReactNode): boolean {
  if (!isValidElement(node)) return false;
  const props = node.props as Props;
  if (props.sliceId === SCRIPTS_SLICE_ID) return true;
  return node.type === "script" && !KEPT_SCRIPT_TYPES.has((props.type ?? "").toLowerCase());
}

/** A link that makes the browser fetch a script or Gatsby's data (page-data, app-data, static queries). */
function isScriptOrDataFetch(node: ReactNode): boolean {
  if (!isValidElement(node) || node.type !== "link") return false;
  const { rel = "", as = "", href = "" } = node.props as Props;
  if (!rel.split(/\s+/).some((r) => FETCH_RELS.has(r.toLowerCase()))) return false;
  return (
    as === "script" ||
    as === "fetch" ||
    rel.includes("modulepreload") ||
    /\.(m?js|json)(\?|$)/.test(href) ||
    href.includes("/page-data/")
  );
}

/**
 * Checks that Gatsby wrote its scripts where the plugin expects them, in every page (with behaviour
 * or without): the page-path script and the scripts slice in the components after the body.
 */
export function checkGatsbyScripts(postBody: readonly ReactNode[], pathname: string): void {
  const found = {
    slice: postBody.some((node) => propsOf(node)?.sliceId === SCRIPTS_SLICE_ID),
    pagePath: postBody.some((node) => propsOf(node)?.id === PAGE_PATH_SCRIPT_ID),
  };
  if (!found.slice || !found.pagePath)
    throw internalChanged(
      INTERNALS.postBodyScripts,
      `the components after the body of ${pathname} hold ${found.slice ? "" : `no <ServerSliceRenderer sliceId="${SCRIPTS_SLICE_ID}">`}${!found.slice && !found.pagePath ? " and " : ""}${found.pagePath ? "" : `no <script id="${PAGE_PATH_SCRIPT_ID}">`}`,
    );
}

/** The head and end of body of a page without behaviour: every script and script or data fetch left out. */
export function withoutScripts(head: readonly ReactNode[], postBody: readonly ReactNode[]) {
  return {
    head: head.filter((node) => !isScript(node) && !isScriptOrDataFetch(node)),
    postBody: postBody.filter((node) => !isScript(node) && !isScriptOrDataFetch(node)),
  };
}
