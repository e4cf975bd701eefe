import type { GatsbyBrowser } from "gatsby";
import { hydrateInTransition } from "./src/browser/hydrate";

type Renderer = ReturnType<NonNullable<GatsbyBrowser["replaceHydrateFunction"]>>;

export const replaceHydrateFunction: GatsbyBrowser["replaceHydrateFunction"] = () => hydrateInTransition as unknown as Renderer;
