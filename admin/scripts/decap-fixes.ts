/**
 * Fixes to Decap CMS's own code, applied as the studio is bundled, each for a bug an editor meets,
 * not fixed upstream when written. Each names the text it replaces: when an upgrade changes that
 * text, the build stops and says which fix to check, rather than shipping the bug back silently.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "esbuild";

interface Fix {
  /** The package file, under node_modules (its ES module build: the one esbuild bundles). */
  file: string;
  find: string;
  replace: string;
  why: string;
  /** What the replacement calls of the studio's own code: names and their module under admin/src. */
  uses?: { names: string; module: string };
}

export const FIXES: readonly Fix[] = [
  {
    // A list of one field keeps per-value metadata (a relation's chosen entry); removing an entry
    // removed the metadata by the value itself as a key path, which Immutable refuses ("Invalid
    // keyPath: expected Ordered Collection or Array: cdms"): the × of a Services menu entry did
    // nothing. The value is the path's one key.
    file: "decap-cms-widget-list/dist/esm/ListControl.js",
    find: "const metadataRemovePath = isSingleField ? value.get(index) : value.get(index).valueSeq();",
    replace: "const metadataRemovePath = isSingleField ? [value.get(index)] : value.get(index).valueSeq();",
    why: "removing an entry of a list of relations (the Services menu's ×)",
  },
  {
    // A list's header read "2 intro", "0 gallery", "20 services menu": the count, then the field's
    // name. It reads "Intro: 2 paragraphs", with the entries' words from the schema (count_words).
    file: "decap-cms-widget-list/dist/esm/ListControl.js",
    find: "heading: `${items.size} ${listLabel}`,",
    replace: "heading: listHeading(label, items.size, countWordsOf(field), labelSingular),",
    why: "a list's header in words",
    uses: { names: "listHeading, countWordsOf", module: "list-heading.ts" },
  },
  {
    // Beside Publish, on a saved entry, a "Check for Preview" button appeared whenever the git host
    // had no deploy preview of the change (Decap records "no preview" as PENDING): pressing it asked
    // again and nothing visible happened. The site has no such previews (build.ts: show_preview_links
    // false), so the control shows only with a preview to open.
    file: "decap-cms-core/dist/esm/components/Editor/EditorToolbar.js",
    find: "    if (!status) {\n      return;\n    }\n    const deployPreviewReady",
    replace: "    if (status !== 'SUCCESS' || !url) {\n      return;\n    }\n    const deployPreviewReady",
    why: "the deploy preview button that does nothing",
  },
  {
    // An entry opened by its address (a bookmark, the browser's Back) with its collection's list never
    // loaded: deleting it deleted the file, then the reducer's removal of its id from the list's page
    // threw ("Cannot read properties of undefined (reading 'filter')"), and Decap said "Failed to delete
    // entry" over an emptied form. With no page loaded, there is no id to remove (Immutable's updateIn
    // changes nothing when the updater returns what it was given).
    file: "decap-cms-core/dist/esm/reducers/entries.js",
    find: "map.updateIn(['pages', payload.collectionName, 'ids'], ids => ids.filter(id => id !== payload.entrySlug));",
    replace:
      "map.updateIn(['pages', payload.collectionName, 'ids'], ids => ids && ids.filter(id => id !== payload.entrySlug));",
    why: "deleting an entry opened by its address",
  },
  {
    // A blank new entry read "CHANGES SAVED" under its collection's name before anything was saved.
    // A new entry says nothing until it is changed ("UNSAVED CHANGES"); once saved, Decap opens it as
    // the entry it now is, which says "CHANGES SAVED".
    file: "decap-cms-core/dist/esm/components/Editor/EditorToolbar.js",
    find: "}) : _jsx(BackStatusUnchanged, {",
    replace: "}) : this.props.isNewEntry ? null : _jsx(BackStatusUnchanged, {",
    why: "'Changes saved' on a new entry never saved",
  },
  {
    // A list entry's × had no name for a screen reader ("button"); it removes the entry.
    file: "decap-cms-ui-default/dist/esm/ListItemTopBar.js",
    find: '      onClick: onRemove,\n      children: _jsx(Icon, {\n        type: "close",',
    replace:
      '      onClick: onRemove,\n      "aria-label": "Remove this entry",\n      children: _jsx(Icon, {\n        type: "close",',
    why: "the name of a list entry's ×",
  },
];

export function decapFixes(fixes: readonly Fix[] = FIXES): Plugin {
  // One loader per file (esbuild takes the first loader's contents): every fix of the file in it.
  const files = [...new Set(fixes.map((fix) => fix.file))];
  return {
    name: "decap-fixes",
    setup(build) {
      for (const file of files)
        build.onLoad({ filter: fileFilter(file) }, async (args) => {
          let source = await fs.promises.readFile(args.path, "utf8");
          const imports: string[] = [];
          for (const fix of fixes.filter((f) => f.file === file)) {
            if (!source.includes(fix.find))
              return {
                errors: [
                  {
                    text: `Decap's ${args.path} has changed: check the fix for ${fix.why} (admin/scripts/decap-fixes.ts)`,
                  },
                ],
              };
            source = source.replace(fix.find, fix.replace);
            if (fix.uses)
              imports.push(
                `import { ${fix.uses.names} } from ${JSON.stringify(path.resolve(__dirname, "../src", fix.uses.module))};`,
              );
          }
          return { contents: [...imports, source].join("\n"), loader: "js" };
        });
    },
  };
}

/** "a/b.js" -> a filter matching that path's end, with either separator. */
export function fileFilter(file: string): RegExp {
  const escaped = file.split("/").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`[\\\\/]${escaped.join("[\\\\/]")}$`);
}
