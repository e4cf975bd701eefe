// The parts of Decap's core (its ES module build, the one esbuild bundles) that unique-uploads.ts,
// upload-rename.ts and picture-width.ts call: the package declares no types for its modules' paths.
declare module "decap-cms-core/dist/esm/backend" {
  export function currentBackend(config: unknown): {
    listAllEntries(collection: unknown): Promise<Array<{ slug: string; data: unknown }>>;
    getEntry(state: unknown, collection: unknown, slug: string): Promise<{ data?: Record<string, unknown> }>;
    getMediaFile(path: string): Promise<{ file?: Blob }>;
  };
}
declare module "decap-cms-core/dist/esm/reducers/entries" {
  export function selectMediaFilePath(
    config: unknown,
    collection: unknown,
    entry: unknown,
    mediaPath: string,
    field: unknown,
  ): string;
}
declare module "decap-cms-core/dist/esm/reducers/mediaLibrary" {
  export function selectMediaFiles(state: unknown, field?: unknown): Array<{ name: string }>;
}
declare module "decap-cms-core/dist/esm/actions/notifications" {
  export function addNotification(notification: { message: string; type: string; dismissAfter?: number }): unknown;
  /** The type of the action addNotification makes (refusal-notice.ts leaves one out). */
  export const NOTIFICATION_SEND: string;
}
declare module "decap-cms-core/dist/esm/redux" {
  /** Decap's Redux store (its state's shape is read where it is used: field-asset.ts, relation-targets.ts). */
  export const store: {
    getState(): unknown;
    dispatch(action: unknown): unknown;
    subscribe(listener: () => void): () => void;
  };
}
declare module "decap-cms-core/dist/esm/actions/entries" {
  /** Sets a top-level field of the entry being edited (its metadata and the saved entries it compares with). */
  export function changeDraftField(change: { field: unknown; value: unknown; entries: unknown[] }): unknown;
  /** Adds an upload to the entry being edited (first among them), in place of any with its id. */
  export function addDraftEntryMediaFile(file: object): unknown;
}
