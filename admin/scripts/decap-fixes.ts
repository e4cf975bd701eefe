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
  {
    // The fold button of a list entry (its chevron) had no name for a screen reader, nor its state.
    file: "decap-cms-ui-default/dist/esm/ListItemTopBar.js",
    find: "    children: [onCollapseToggle ? _jsx(TopBarButton, {\n      onClick: onCollapseToggle,\n",
    replace:
      '    children: [onCollapseToggle ? _jsx(TopBarButton, {\n      onClick: onCollapseToggle,\n      "aria-label": "This entry\'s fields",\n      "aria-expanded": !collapsed,\n',
    why: "the name of a list entry's fold button",
  },
  {
    // A list entry's ☰ handle was a button for the keyboard and screen readers ("press the space
    // bar to pick up"), but Decap's lists drag with the mouse and touch only: the key did nothing. It
    // is left to the mouse and the finger, out of the Tab order; docs/editing-studio.md says how to
    // reorder without them.
    file: "decap-cms-widget-list/dist/esm/ListControl.js",
    find: '  return _jsx("div", {\n    ...attributes,\n    ...listeners,\n    children: children\n  });',
    replace:
      '  return _jsx("div", {\n    ...attributes,\n    ...listeners,\n    role: undefined,\n    tabIndex: undefined,\n    "aria-roledescription": undefined,\n    "aria-describedby": undefined,\n    "aria-hidden": true,\n    children: children\n  });',
    why: "a list entry's drag handle that the keyboard cannot use",
  },
  {
    // Decap's switch (the Rich Text / Markdown switch) dropped the name it was given, and said no
    // state until pressed (aria-checked left out while its value is undefined, which a switch must have).
    file: "decap-cms-ui-default/dist/esm/Toggle.js",
    find: "  Handle = ToggleHandle\n}) {",
    replace: '  Handle = ToggleHandle,\n  "aria-label": ariaLabel\n}) {',
    why: "the switch's name",
  },
  {
    file: "decap-cms-ui-default/dist/esm/Toggle.js",
    find: '    role: "switch",\n    "aria-checked": isActive?.toString(),',
    replace: '    role: "switch",\n    "aria-label": ariaLabel,\n    "aria-checked": String(Boolean(isActive)),',
    why: "the switch's name and state",
  },
  {
    // The Rich Text / Markdown switch's name said what pressing it would do, and changed with it; a
    // switch is named by what it turns on ("Markdown": on in Markdown mode, off in Rich Text).
    file: "decap-cms-widget-markdown/dist/esm/MarkdownControl/Toolbar.js",
    find: "\"aria-label\": rawMode ? t('editor.editorWidgets.markdown.toggleMode.rich') : t('editor.editorWidgets.markdown.toggleMode.markdown')",
    replace: "\"aria-label\": t('editor.editorWidgets.markdown.markdown')",
    why: "the name of the Rich Text / Markdown switch",
  },
  {
    // The Markdown editor's text box (Rich Text mode) had no name: a screen reader said "edit text"
    // with no field. It is named by the field's label, as the other fields are.
    file: "decap-cms-widget-markdown/dist/esm/MarkdownControl/VisualEditor.js",
    find: "            onKeyDown: handleKeyDown,\n            autoFocus: false\n",
    replace:
      "            onKeyDown: handleKeyDown,\n            autoFocus: false,\n            \"aria-label\": field.get('label', field.get('name'))\n",
    why: "the name of the Markdown editor's text box",
  },
  {
    // Decap's grey (#798291: the header's and the sidebar's links, a collection's description, the
    // Markdown switch's labels, links in the Markdown editor, white words on grey buttons) reached
    // 3.9:1 on white and 2.9:1 on the fields' grey, and its blue 3.9:1 on the fields' grey, where text
    // needs 4.5:1 (WCAG 1.4.3). Darker shades of the same colours reach 5.5:1 on both.
    file: "decap-cms-ui-default/dist/esm/styles.js",
    find: "  gray: '#798291',\n  grayDark: '#313d3e',\n  blue: '#3a69c7',",
    replace: "  gray: '#4f5562',\n  grayDark: '#313d3e',\n  blue: '#2a4f9c',",
    why: "the contrast of Decap's grey and blue",
  },
  {
    // Decap's red (#ff003b: the words of a refused field, its label's band, "Unsaved changes") reached
    // 3.9:1 on white and less on its light red, and its teal (#17a2b8, the Publish button, white words
    // on it) 3.0:1, where text needs 4.5:1 (WCAG 1.4.3): both met on the way to a refused publish and
    // back. Darker shades of the same colours reach 5:1 (red on the light red of a badge, too).
    file: "decap-cms-ui-default/dist/esm/styles.js",
    find: "  red: '#ff003b',",
    replace: "  red: '#c2002d',",
    why: "the contrast of Decap's red",
  },
  {
    file: "decap-cms-ui-default/dist/esm/styles.js",
    find: "  teal: '#17a2b8',",
    replace: "  teal: '#127a8b',",
    why: "the contrast of Decap's teal",
  },
  {
    // The header's Media button had a grey of its own, #7b8290: 3.9:1 on white (see the fix above).
    file: "decap-cms-core/dist/esm/components/App/Header.js",
    find: '(buttons.button, ";background:none;color:#7b8290;',
    replace: '(buttons.button, ";background:none;color:#4f5562;',
    why: "the contrast of the header's Media button",
  },
  {
    // The preview's frame had no title: a screen reader announced an unnamed frame.
    file: "decap-cms-core/dist/esm/components/Editor/EditorPreviewPane/EditorPreviewPane.js",
    find: '        id: "preview-pane",\n        head: styleEls,\n        initialContent: initialContent,',
    replace:
      '        id: "preview-pane",\n        title: "Preview",\n        head: styleEls,\n        initialContent: initialContent,',
    why: "the preview frame's title",
  },
  {
    // A media library card's picture had no alt text; the card shows the file's name under it, which
    // names the card, so the picture is marked as adding no words of its own.
    file: "decap-cms-core/dist/esm/components/MediaLibrary/MediaLibraryCard.js",
    find: '_jsx(CardImage, {\n          loading: "lazy",\n          src: url\n        })',
    replace: '_jsx(CardImage, {\n          loading: "lazy",\n          alt: "",\n          src: url\n        })',
    why: "the alt text of the media library's pictures",
  },
  {
    // Tab into a one-line text field selects its text, as browsers do, so that typing replaces it.
    // Decap put the caret back where the last typing left it (for fields inside its Markdown editor,
    // decap-cms issue 4539) on every redraw, the focus's own included: Tab into "/career", typing
    // "/careers" gave "/career/careers". The caret is now put back only while typing in the field.
    file: "decap-cms-widget-string/dist/esm/StringControl.js",
    find: "    if (this._el && this._el.selectionStart !== this._sel) {",
    replace: "    if (this._el && this._sel !== undefined && this._el.selectionStart !== this._sel) {",
    why: "the text selected on Tab into a field",
  },
  {
    file: "decap-cms-widget-string/dist/esm/StringControl.js",
    find: "      onFocus: setActiveStyle,",
    replace: "      onFocus: event => {\n        this._sel = undefined;\n        setActiveStyle(event);\n      },",
    why: "the text selected on Tab into a field (on focus)",
  },
  {
    // A save that fails or is refused rejects (decap-cms issue 2320), after it has said why, so that
    // the editor neither drops the entry's local backup nor moves on to a new entry; the form started
    // it and let the rejection go, and the page reported an error for every refused publish
    // ("Uncaught (in promise) undefined", or "Object"). The form catches it. (Editor.js, which awaits
    // it, is delete-guard-fix.ts's: esbuild loads a file through one plugin only.)
    file: "decap-cms-core/dist/esm/components/Editor/EditorInterface.js",
    find: "    this.controlPaneRef.validate();\n    this.props.onPersist({\n      createNew,\n      duplicate\n    });",
    replace:
      "    this.controlPaneRef.validate();\n    Promise.resolve(this.props.onPersist({\n      createNew,\n      duplicate\n    })).catch(() => undefined);",
    why: "the page error of a refused save",
  },
  {
    // The same for a publish under review (Decap's publishUnpublishedEntry).
    file: "decap-cms-core/dist/esm/components/Editor/EditorInterface.js",
    find: "    this.controlPaneRef.validate();\n    this.props.onPublish({\n      createNew,\n      duplicate\n    });",
    replace:
      "    this.controlPaneRef.validate();\n    Promise.resolve(this.props.onPublish({\n      createNew,\n      duplicate\n    })).catch(() => undefined);",
    why: "the page error of a refused publish under review",
  },
  {
    // The form on screen, for the studio's way to a field the content check refuses (field-focus.ts):
    // Decap keeps it to itself.
    file: "decap-cms-core/dist/esm/components/Editor/EditorInterface.js",
    find: "        ref: c => this.controlPaneRef = c,",
    replace: "        ref: c => {\n          this.controlPaneRef = c;\n          setControlPane(c);\n        },",
    why: "the way to a refused field",
    uses: { names: "setControlPane", module: "field-focus.ts" },
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
