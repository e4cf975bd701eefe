/**
 * What Gatsby writes around each page at build time, beyond the page's own components: the registry
 * of the page's behaviours (src/hooks/use-behaviour.ts), which decides whether the page ships any
 * script, and the speculation rules that keep moving between pages instant without Gatsby's router.
 */
import type { GatsbySSR } from "gatsby";
import { BehaviourRegistry, type Behaviour } from "./src/hooks/use-behaviour";
import { speculationRulesText } from "./src/utils/speculation-rules";
import { checkGatsbyScripts, withoutScripts } from "./plugins/gatsby-plugin-cyrus-performance/src/script-free";

// `gatsby develop` keeps Gatsby's scripts on every page (hot reloading, hydration of everything).
const production = process.env.NODE_ENV === "production";

/**
 * The behaviours each page's components registered while it rendered, by path: Gatsby renders the
 * body (wrapRootElement) before it assembles the page's HTML (onPreRenderHTML), possibly for several
 * pages at once in one worker, so the path keys them.
 */
const rendered = new Map<string, Set<Behaviour>>();

export const wrapRootElement: GatsbySSR["wrapRootElement"] = ({ element, pathname }) => {
  // Slices (Gatsby's own scripts slice) are rendered without a path and have no behaviour.
  if (typeof pathname !== "string") return element;
  const behaviours = new Set<Behaviour>();
  rendered.set(pathname, behaviours);
  return <BehaviourRegistry.Provider value={behaviours}>{element}</BehaviourRegistry.Provider>;
};

export const onRenderBody: GatsbySSR["onRenderBody"] = ({ setHeadComponents }) => {
  if (!production) return;
  setHeadComponents([
    <script
      key="speculation-rules"
      type="speculationrules"
      dangerouslySetInnerHTML={{ __html: speculationRulesText() }}
    />,
  ]);
};

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
  checkGatsbyScripts(postBody, pathname);
  if (behaviours.size > 0) return;
  const { head, postBody: rest } = withoutScripts(getHeadComponents(), postBody);
  replaceHeadComponents(head);
  replacePostBodyComponents(rest);
};
