/**
 * The width and size in bytes of the picture an image field names, from the file itself: an upload of this session
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

/** What the image rules (src/node/content/image-width-rule.ts) measure, as the content check does. */
export interface PictureSize {
  width: number;
  bytes: number;
}

/** Saved files by repository path: each is read once a session (uploads never replace one). */
const saved = new Map<string, Promise<PictureSize | undefined>>();

/** The picture's width in pixels and its bytes, or undefined when it cannot be read or decoded (nothing to say). */
export function pictureSize(value: string, where: PictureContext): Promise<PictureSize | undefined> {
  const upload = uploadedFile(value);
  if (upload) return measured(upload);
  const path = selectMediaFilePath(where.config, where.collection, where.entry, value, where.field);
  let size = saved.get(path);
  if (!size) {
    size = currentBackend(where.config)
      .getMediaFile(path)
      .then((media) => (media.file ? measured(media.file) : undefined))
      .catch(() => undefined);
    saved.set(path, size);
  }
  return size;
}

async function measured(file: Blob): Promise<PictureSize | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const { width } = bitmap;
    bitmap.close();
    return { width, bytes: file.size };
  } catch {
    return undefined;
  }
}
