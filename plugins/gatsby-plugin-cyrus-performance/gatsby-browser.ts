import type { GatsbyBrowser } from "gatsby";
import { hydrateInTransition } from "./src/hydrate";

type Renderer = ReturnType<NonNullable<GatsbyBrowser["replaceHydrateFunction"]>>;

/** Hydration inside a React transition, in slices instead of one long task (src/hydrate.ts). */
export const replaceHydrateFunction: GatsbyBrowser["replaceHydrateFunction"] = () =>
  hydrateInTransition as unknown as Renderer;
