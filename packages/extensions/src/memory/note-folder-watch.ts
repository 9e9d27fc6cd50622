import { watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';

/** At most this many note folders are watched; a larger tree is swept with a `stat` of every note. */
export const MAX_WATCHED_NOTE_FOLDERS = 2_000;

/**
 * Which note folders had file events since the last check: one `fs.watch` per folder (inotify on
 * Linux), which reports a note edited in place as well as notes added, removed or renamed (a
 * folder's own modification time only shows the latter). Watchers never keep the process alive.
 * When a watcher cannot be made or fails, or there are too many folders, {@link take} says `all`
 * and the caller sweeps every note as before.
 */
export class NoteFolderWatch {
  readonly #watchers = new Map<string, FSWatcher>();
  #dirty = new Set<string>();
  #failed = false;

  /** Watches `folder` (call it before listing the folder, so no change between the two is missed). */
  add(folder: string): void {
    if (this.#failed || this.#watchers.has(folder)) return;
    if (this.#watchers.size >= MAX_WATCHED_NOTE_FOLDERS) {
      this.#fail();
      return;
    }
    try {
      const watcher = watch(folder, { persistent: false }, () => this.#dirty.add(folder));
      watcher.on('error', () => this.#fail());
      this.#watchers.set(folder, watcher);
    } catch (error) {
      // A folder removed meanwhile is the listing's to notice; anything else (the watch limit) ends watching.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.#fail();
    }
  }

  /** Whether `folder` is watched now. */
  has(folder: string): boolean {
    return this.#watchers.has(folder);
  }

  /** Stops watching `folder` and every folder below it (they are gone). */
  forget(folder: string): void {
    for (const [watched, watcher] of this.#watchers)
      if (watched === folder || watched.startsWith(folder + sep)) {
        watcher.close();
        this.#watchers.delete(watched);
      }
  }

  /**
   * The folders with events since the last call, outermost only (a folder below another is
   * covered by it), or `all` when watching failed: then every note must be checked.
   */
  take(): string[] | 'all' {
    if (this.#failed) return 'all';
    const dirty = [...this.#dirty].sort();
    this.#dirty = new Set();
    return dirty.filter((folder, index) => !dirty.slice(0, index).some((outer) => folder.startsWith(outer + sep)));
  }

  /** Whether watching works (no failure so far). */
  get healthy(): boolean {
    return !this.#failed;
  }

  /** Closes every watcher; the next {@link take} says `all`. */
  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#failed = true;
  }

  #fail(): void {
    this.close();
  }
}
