/**
 * The editing studio: Decap CMS with the configuration generated from data/schemas at build time
 * (admin/scripts/build.ts puts it in __CMS_CONFIG__), previews made of the site's own views and CSS,
 * empty optional values left out of what it saves, and saves that change only what changed (yaml/).
 */
import CMS from "decap-cms-app";
import { fromJS } from "immutable";
import type { ComponentType } from "react";
import { previewTemplates } from "./previews/templates";
import { ERROR_STYLE, withStudioPhrases } from "./field-limits";
import { withLengthLimit } from "./limited-widgets";
import { PICTURE_NOTE_STYLE, withPictureNotes } from "./image-field";
import { LIBRARY_NOTICE_STYLE } from "./library-notice";
import { withRefusals } from "./refusing-widgets";
import { RELATION_NOTE_STYLE, withMissingNote, withNames } from "./missing-relation";
import { withoutEmpty } from "./prune";
import { refuseWhatTheCheckRefuses } from "./save-check";
import { installNotices, NOTICE_STYLE, TOAST_STYLE } from "./studio-notice";
import { mountReleaseStatus } from "./release-status-bar";
import { FORMAT, withSource, yamlLines } from "./yaml/format";
// The site's global rules and tokens, first, as its Layout has them: studio.css, for the preview frame.
import "../../src/styles/global.css";

declare const __CMS_CONFIG__: Record<string, unknown>;
declare const __PREVIEW_STYLE__: string;
declare const __RELEASE_STATUS__: boolean;

interface EntryEvent {
  entry: {
    get(key: "data"): { toJS(): unknown };
    get(key: "raw"): unknown;
    get(key: "newRecord"): unknown;
  };
}

// Decap's own types describe templates and events loosely; the previews state what they read.
const cms = CMS as unknown as {
  init(options: { config: Record<string, unknown> }): void;
  registerPreviewStyle(href: string): void;
  registerPreviewTemplate(name: string, component: ComponentType<never>): void;
  registerEventListener(listener: { name: string; handler: (event: EntryEvent) => unknown }): void;
  registerCustomFormat(name: string, extension: string, formatter: typeof yamlLines): void;
  registerLocale(locale: string, phrases: unknown): void;
  getLocale(locale: string): Record<string, unknown> | undefined;
  getWidget(name: string): { control: ComponentType<never>; preview?: ComponentType<never> } | undefined;
};

cms.registerPreviewStyle(__PREVIEW_STYLE__);
for (const [name, template] of Object.entries(previewTemplates))
  cms.registerPreviewTemplate(name, template as ComponentType<never>);
// The built-in widgets themselves get the length check and the refusals (every option they were
// registered with kept): blank required text, a key or order another entry has (refusing-widgets.tsx).
for (const name of ["string", "text", "number"]) {
  const widget = cms.getWidget(name)!;
  const control = name === "number" ? widget.control : withLengthLimit(widget.control as never);
  widget.control = withRefusals(control as never) as ComponentType<never>;
}
cms.registerLocale("en", withStudioPhrases(cms.getLocale("en") ?? {}));
// The image field says when an upload got a name of its own, or is too narrow (image-field.tsx).
const image = cms.getWidget("image")!;
image.control = withPictureNotes(image.control as never) as ComponentType<never>;
// A relation (the Services menu) naming an entry that is gone says so, in the form and the preview.
const relation = cms.getWidget("relation")!;
relation.control = withMissingNote(relation.control as never) as ComponentType<never>;
if (relation.preview) relation.preview = withNames(relation.preview as never) as ComponentType<never>;
const errorStyle = document.createElement("style");
errorStyle.textContent =
  ERROR_STYLE + PICTURE_NOTE_STYLE + RELATION_NOTE_STYLE + LIBRARY_NOTICE_STYLE + NOTICE_STYLE + TOAST_STYLE;
document.head.append(errorStyle);
cms.registerCustomFormat(FORMAT, "yaml", yamlLines);
// The file's current text travels with the data to the format's toFile, which splices into it.
cms.registerEventListener({
  name: "preSave",
  handler: ({ entry }) =>
    fromJS(
      withSource(
        withoutEmpty(entry.get("data").toJS()) as Record<string, unknown>,
        entry.get("raw"),
        entry.get("newRecord") === true,
      ),
    ),
});
// Then what the content check would refuse is refused, and no save is sent (save-check.ts); the notice
// at the top says why (refusal-notice.ts, around Decap's save).
cms.registerEventListener({
  name: "preSave",
  handler: async ({ entry }) => {
    await refuseWhatTheCheckRefuses(entry as never);
    return undefined;
  },
});
cms.init({ config: __CMS_CONFIG__ });
// The notice at the top: a refused save (refusal-notice.ts), a delete being checked and its answer.
installNotices();
// Only where the site serves the release's status (admin/scripts/build.ts): elsewhere it would be a 404.
if (__RELEASE_STATUS__) mountReleaseStatus();
