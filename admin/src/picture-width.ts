/**
 * The width of the picture an image field names, from the file itself: an upload of this session
 * from the File the editor chose (the backend has it only once published), a saved picture from the
 * backend's copy of the file (decap-server's folder, or the git host's blob). The picture the field
 * shows is no measure: a saved one can be shown from a smaller copy (seen: 300 px for a 2400 px
 * banner), which warned about a banner wide enough.
 */
import { currentBackend } from "decap-cms-core/dist/esm/backend";
import { selectMediaFilePath } from "decap-cms-core/dist/esm/reducers/entries";
import { uploadedFile } from "./unique-uploads";

/** Where a field's picture lives, as Decap's Widget gives it to its control. */
export interface PictureContext {
  config: unknown;
  collection: unknown;
  entry: unknown;
  field: unknown;
}

/** Saved files by repository path: each is read once a session (uploads never replace one). */
const saved = new Map<string, Promise<number | undefined>>();

/** The picture's width in pixels, or undefined when it cannot be read or decoded (nothing to say). */
export function pictureWidth(value: string, where: PictureContext): Promise<number | undefined> {
  const upload = uploadedFile(value);
  if (upload) return decodedWidth(upload);
  const path = selectMediaFilePath(where.config, where.collection, where.entry, value, where.field);
  let width = saved.get(path);
  if (!width) {
    width = currentBackend(where.config)
      .getMediaFile(path)
      .then((media) => (media.file ? decodedWidth(media.file) : undefined))
      .catch(() => undefined);
    saved.set(path, width);
  }
  return width;
}

async function decodedWidth(file: Blob): Promise<number | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const { width } = bitmap;
    bitmap.close();
    return width;
  } catch {
    return undefined;
  }
}
