import fs from "node:fs";
import path from "node:path";

export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs (an editor's save is several events). */
  wait?: number;
  /** Longest time `onChange` waits while changes keep coming (a copy of many files). */
  maxWait?: number;
  /** Told of an error of `onChange` or of a watcher; the watching goes on. */
  onError?: (error: unknown) => void;
}

/** `dir` and every folder under it. */
function foldersUnder(dir: string): string[] {
  const folders = [dir];
  try {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(path.join(entry.parentPath, entry.name));
    }
  } catch {
    // Removed meanwhile: the next change looks again.
  }
  return folders;
}

/**
 * Calls `onChange` after changes under `dir` (files added, changed, removed, in any folder), once per
 * burst of changes: `wait` ms after the last one, and at least every `maxWait` ms while they go on.
 * `onChange` never runs twice at once, and an error in it is `onError`'s. Returns a function that
 * stops watching.
 *
 * Each folder has a watcher of its own, not one `fs.watch(dir, { recursive: true })`: on Linux,
 * Node 22's recursive watch follows a file's inode, and loses the file once an editor saves it by
 * writing a new file and renaming it over the old one (vim, sed -i, many editors' "atomic save"). A
 * folder's watcher sees those renames, and folders added or removed are watched or dropped after
 * each burst.
 */
export function watchFolder(dir: string, onChange: () => void | Promise<void>, options: WatchOptions = {}): () => void {
  const { wait = 150, maxWait = 1000, onError = (error: unknown) => console.error(error) } = options;
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let firstChange: number | undefined;
  let running = false;
  let again = false;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    const now = Date.now();
    firstChange ??= now;
    clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, Math.min(wait, firstChange + maxWait - now)));
  };

  const syncWatchers = () => {
    const folders = new Set(foldersUnder(dir));
    for (const [folder, watcher] of watchers) {
      if (!folders.has(folder)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = fs.watch(folder, schedule);
        // A folder removed while watched: its parent's watcher reports that, and the sync drops it.
        watcher.on("error", () => undefined);
        watchers.set(folder, watcher);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") onError(error);
      }
    }
  };

  const run = async () => {
    timer = undefined;
    firstChange = undefined;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      syncWatchers();
      await onChange();
    } catch (error) {
      onError(error);
    } finally {
      running = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };

  syncWatchers();
  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
