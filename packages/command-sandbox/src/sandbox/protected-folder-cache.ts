import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { posix } from 'node:path';

/** What the protected-path search keeps of one folder's listing. */
export interface FolderListing {
  /** Sub-folders to search (not symlinks, not node_modules). */
  readonly subfolders: readonly string[];
  /** Entries that are protected paths, with what they are. */
  readonly candidates: readonly { readonly path: string; readonly kind: 'directory' | 'file' | 'symlink' }[];
  /** The folder holds HEAD, objects and refs: a git folder whatever its name. */
  readonly gitFolder: boolean;
}

interface CachedListing extends FolderListing {
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

const NOT_SEARCHED = new Set(['node_modules']);
const GIT_MARKERS = ['HEAD', 'objects', 'refs'];
/**
 * A listing is trusted only when the folder's mtime and ctime are this much older than the
 * listing: file times come from a coarse clock, so a change in the same tick as the listing keeps
 * them. ctime also catches an mtime set back with `touch -d` (nobody can set ctime).
 */
const SETTLED_MS = 2_000;
/** Folders remembered per workspace, and workspaces remembered. */
const MAX_FOLDERS = 100_000;
const MAX_WORKSPACES = 8;

/**
 * Folder listings of the protected-path search, kept per workspace and reused while the folder's
 * inode, mtime and ctime are unchanged (adding, removing or renaming an entry changes the mtime),
 * so a search costs one `lstat` per unchanged folder instead of one `readdir`.
 */
export class ProtectedFolderCache {
  readonly #workspaces = new Map<string, Map<string, CachedListing & { listedAtMs: number }>>();

  /** The listing of `folder`, or undefined when it is not a readable folder. */
  list(
    workspace: string,
    folder: string,
    isCandidate: (path: string, name: string) => boolean,
  ): FolderListing | undefined {
    let stats: Stats;
    try {
      stats = lstatSync(folder);
    } catch {
      return undefined;
    }
    if (!stats.isDirectory()) return undefined;
    const folders = this.#folders(workspace);
    const cached = folders.get(folder);
    if (
      cached &&
      cached.ino === stats.ino &&
      cached.mtimeMs === stats.mtimeMs &&
      cached.ctimeMs === stats.ctimeMs &&
      cached.listedAtMs - Math.max(stats.mtimeMs, stats.ctimeMs) > SETTLED_MS
    )
      return cached;
    const listedAtMs = Date.now();
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      folders.delete(folder);
      return undefined;
    }
    const subfolders: string[] = [];
    const candidates: { path: string; kind: 'directory' | 'file' | 'symlink' }[] = [];
    for (const entry of entries) {
      const path = posix.join(folder, entry.name);
      const kind = entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : 'file';
      if (isCandidate(path, entry.name)) candidates.push({ path, kind });
      else if (kind === 'directory' && !NOT_SEARCHED.has(entry.name)) subfolders.push(path);
    }
    const gitFolder = GIT_MARKERS.every((marker) => entries.some((entry) => entry.name === marker));
    const listing = {
      subfolders,
      candidates,
      gitFolder,
      ino: stats.ino,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
      listedAtMs,
    };
    if (folders.size >= MAX_FOLDERS) folders.clear();
    folders.set(folder, listing);
    return listing;
  }

  #folders(workspace: string) {
    let folders = this.#workspaces.get(workspace);
    if (!folders) {
      if (this.#workspaces.size >= MAX_WORKSPACES) this.#workspaces.delete(this.#workspaces.keys().next().value!);
      folders = new Map();
      this.#workspaces.set(workspace, folders);
    }
    return folders;
  }
}
