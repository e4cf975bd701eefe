/**
 * When the file an image field names has been loaded for display. Decap's image control asks for its
 * thumbnail once, as it mounts: a saved picture is not loaded yet then (the backend is asked for it),
 * so Decap hands out its empty placeholder, and the control never asks again (its getAsset is the same
 * function for the whole session, the only thing that would make it ask). Every saved picture showed
 * an empty checkerboard, while the preview, which asks on each render, showed it. image-field.tsx
 * waits here and then gives the control a new getAsset, so that it asks again and gets the file.
 */
import { store } from "decap-cms-core/dist/esm/redux";
import { selectMediaFilePath } from "decap-cms-core/dist/esm/reducers/entries";
import type { PictureContext } from "./picture-width";

/**
 * Calls `loaded` once the file is loaded (or failed to load: Decap then shows its path) unless it was
 * there already; returns the function that stops waiting (the field unmounted, or names another file).
 */
export function whenLoaded(value: string, where: PictureContext, loaded: () => void): () => void {
  // Where Decap's store keeps the file: absent until the control asks, then loading, then done.
  const path = selectMediaFilePath(where.config, where.collection, where.entry, value, where.field);
  // `medias` holds each file loaded for display, by repository path.
  const done = () =>
    (store.getState() as { medias: Record<string, { isLoading?: boolean } | undefined> }).medias[path]?.isLoading ===
    false;
  if (done()) return () => undefined;
  const stop = store.subscribe(() => {
    if (!done()) return;
    stop();
    loaded();
  });
  return stop;
}
