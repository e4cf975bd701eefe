/**
 * What Gatsby writes around each page at build time, beyond the page's own components: the registry
 * of the page's behaviours (src/hooks/use-behaviour.ts), which decides the page's scripts, and the
 * speculation rules that keep moving between pages instant without Gatsby's router.
 *
 * No built page loads Gatsby's runtime (webpack's runtime, React, its app and router, the page's
 * chunk, the page data): React renders every page here, and the browser gets only the island of each
 * behaviour the page's components registered (src/islands/, bundled by gatsby-node.ts's onPreBuild).
 */
import fs from "node:fs";
import path from "node:path";
import type { GatsbySSR } from "gatsby";
import type { ReactNode } from "react";
import { BehaviourRegistry, type Behaviour, type RegisteredBehaviours } from "./src/hooks/use-behaviour";
import { readIslandsManifest, type IslandsManifest } from "./src/node/islands";
import { speculationRulesText } from "./src/utils/speculation-rules";
import { checkGatsbyScripts, withoutScripts } from "./plugins/gatsby-plugin-cyrus-performance/src/script-free";

// `gatsby develop` keeps Gatsby's scripts on every page (hot reloading, hydration of everything).
const production = process.env.NODE_ENV === "production";

/**
 * The behaviours each page's components registered while it rendered, by path: Gatsby renders the
 * body (wrapRootElement) before it assembles the page's HTML (onPreRenderHTML), possibly for several
 * pages at once in one worker, so the path keys them.
 */
const rendered = new Map<string, RegisteredBehaviours>();

let manifest: IslandsManifest | undefined;

export const wrapRootElement: GatsbySSR["wrapRootElement"] = ({ element, pathname }) => {
  // Slices (Gatsby's own scripts slice) are rendered without a path and have no behaviour.
  if (typeof pathname !== "string") return element;
  const behaviours: RegisteredBehaviours = new Map();
  rendered.set(pathname, behaviours);
  return <BehaviourRegistry.Provider value={behaviours}>{element}</BehaviourRegistry.Provider>;
};

/**
 * The build's id (Gatsby's compilation hash, written to app-data.json before any page is rendered).
 * Every page carried it in Gatsby's inline script, and the release runner, today's and every earlier
 * one a server may still run, checks that the live /home holds it before it keeps a release live
 * (deploy/release/go-live.ts): with Gatsby's scripts gone, this tag carries it.
 */
let buildId: string | undefined;
const readBuildId = () => {
  const appData = path.join(process.cwd(), "public", "page-data", "app-data.json");
  buildId ??= (JSON.parse(fs.readFileSync(appData, "utf8")) as { webpackCompilationHash: string })
    .webpackCompilationHash;
  return buildId;
};

export const onRenderBody: GatsbySSR["onRenderBody"] = ({ setHeadComponents }) => {
  if (!production) return;
  setHeadComponents([
    <meta key="build" name="cyrus-build" content={readBuildId()} />,
    <script
      key="speculation-rules"
      type="speculationrules"
      dangerouslySetInnerHTML={{ __html: speculationRulesText() }}
    />,
  ]);
};

/** JSON inside <script>: "<" escaped, so no text can end the element ("</script>") or open a comment. */
const scriptJson = (data: unknown) => JSON.stringify(data).replace(/</g, "\\u003c");

/**
 * The tags of a page's islands, in the behaviours' order: each one's data (not executed, so no
 * Content-Security-Policy hash) and then its module, from the site's origin ('self'). `async`: a
 * module otherwise holds DOMContentLoaded back until it has arrived and run; after the body, every
 * element an island looks for is parsed before the module is even requested.
 */
function islandTags(behaviours: RegisteredBehaviours): ReactNode[] {
  manifest ??= readIslandsManifest();
  const islands = manifest;
  return [...behaviours.keys()]
    .sort()
    .flatMap((behaviour: Behaviour) => [
      behaviours.get(behaviour) === undefined ? null : (
        <script
          key={`island-data-${behaviour}`}
          id={`island-data-${behaviour}`}
          type="application/json"
          dangerouslySetInnerHTML={{ __html: scriptJson(behaviours.get(behaviour)) }}
        />
      ),
      <script key={`island-${behaviour}`} type="module" src={islands[behaviour]} async data-island={behaviour} />,
    ])
    .filter((tag) => tag !== null);
}

export const onPreRenderHTML: GatsbySSR["onPreRenderHTML"] = ({
  pathname,
  getHeadComponents,
  replaceHeadComponents,
  getPostBodyComponents,
  replacePostBodyComponents,
}) => {
  const behaviours = rendered.get(pathname);
  rendered.delete(pathname);
  if (!production || behaviours === undefined) return;
  const postBody = getPostBodyComponents();
  // Gatsby's scripts must be where they are removed from, or a Gatsby upgrade would ship them again.
  checkGatsbyScripts(postBody, pathname);
  const { head, postBody: rest } = withoutScripts(getHeadComponents(), postBody);
  replaceHeadComponents(head);
  replacePostBodyComponents([...rest, ...islandTags(behaviours)]);
};
