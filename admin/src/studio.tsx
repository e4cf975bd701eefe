/**
 * The editing studio: Decap CMS with the configuration generated from data/schemas at build time
 * (admin/scripts/build.ts puts it in __CMS_CONFIG__), previews made of the site's own views and CSS,
 * and empty optional values left out of what it saves.
 */
import CMS from "decap-cms-app";
import { fromJS } from "immutable";
import type { ComponentType } from "react";
import { previewTemplates } from "./previews/templates";
import { withoutEmpty } from "./prune";
// The site's global rules and tokens, first, as its Layout has them: studio.css, for the preview frame.
import "../../src/styles/global.css";

declare const __CMS_CONFIG__: Record<string, unknown>;
declare const __PREVIEW_STYLE__: string;

interface EntryEvent {
  entry: { get(key: "data"): { toJS(): unknown } };
}

// Decap's own types describe templates and events loosely; the previews state what they read.
const cms = CMS as unknown as {
  init(options: { config: Record<string, unknown> }): void;
  registerPreviewStyle(href: string): void;
  registerPreviewTemplate(name: string, component: ComponentType<never>): void;
  registerEventListener(listener: { name: string; handler: (event: EntryEvent) => unknown }): void;
};

cms.registerPreviewStyle(__PREVIEW_STYLE__);
for (const [name, template] of Object.entries(previewTemplates))
  cms.registerPreviewTemplate(name, template as ComponentType<never>);
cms.registerEventListener({
  name: "preSave",
  handler: ({ entry }) => fromJS(withoutEmpty(entry.get("data").toJS())),
});
cms.init({ config: __CMS_CONFIG__ });
