import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { PROTECTED_PATHS, protectedPathEntry } from '@clawsmith/tool-protocol';
import { ProtectedFolderCache } from './protected-folder-cache.js';
import { inspectGitFolder, type WritableGitFolder } from './git-folder-guard.js';

/**
 * Where the protected paths of one workspace are on the host, as {@link buildSandboxPlan} needs
 * them: found by {@link findProtectedLocations} before every command.
 */
export interface ProtectedLocations {
  /** Absolute paths (folders or files, never symlinks) bound read-only, each a mount point. */
  readonly existing: readonly string[];
  /**
   * Absolute paths that do not exist yet, in a writable folder of the workspace: an empty
   * read-only folder or file is mounted there, so the command cannot create them.
   */
  readonly absent: readonly { readonly path: string; readonly folder: boolean }[];
  /** Git folders outside the workspace that a `.git` file names (worktrees): read-only and visible. */
  readonly linkedGitFolders: readonly string[];
  /**
   * Protected paths that are symbolic links in a writable folder: the command could swap them.
   * `realTarget` is where the link finally leads (every link resolved), absent when it dangles.
   */
  readonly symlinks: readonly { readonly path: string; readonly target: string; readonly realTarget?: string }[];
  /** Git folders among `existing` that commands may write, with what runs code guarded; the others stay read-only whole. */
  readonly writableGitFolders?: readonly WritableGitFolder[];
  /** Folders left unsearched because the walk reached its bound (node_modules is never searched). */
  readonly unsearchedFolders: number;
}

/** How many folders are searched for nested protected paths before the walk stops. */
export const PROTECTED_SEARCH_FOLDERS = 20_000;

/** Listings reused across commands while folders are unchanged (one process, many commands). */
const listings = new ProtectedFolderCache();
const PROTECTED_NAMES = new Set(PROTECTED_PATHS.map((entry) => (entry.path.split('/').at(-1) as string).toLowerCase()));

function kindOf(path: string): 'directory' | 'file' | 'symlink' | 'missing' {
  try {
    const stats = lstatSync(path);
    return stats.isSymbolicLink() ? 'symlink' : stats.isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/** A folder that holds HEAD, objects/ and refs/ is a git folder, whatever its name (`.bare`, `repo.git`). */
export function isGitFolder(path: string): boolean {
  try {
    return (
      statSync(posix.join(path, 'HEAD')).isFile() &&
      statSync(posix.join(path, 'objects')).isDirectory() &&
      statSync(posix.join(path, 'refs')).isDirectory()
    );
  } catch {
    return false;
  }
}

/** The folder a `.git` file (`gitdir: <path>`) points to, and that folder's `commondir`, resolved. */
function linkedGitFolders(gitFile: string): string[] {
  const folders: string[] = [];
  try {
    const line = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(gitFile, 'utf8'))?.[1];
    if (!line) return folders;
    const gitFolder = realpathSync(posix.resolve(posix.dirname(gitFile), line));
    folders.push(gitFolder);
    const common = readFileSync(posix.join(gitFolder, 'commondir'), 'utf8').trim();
    if (common) folders.push(realpathSync(posix.resolve(gitFolder, common)));
  } catch {
    // No readable pointer, or no commondir: git itself fails the same way.
  }
  return folders;
}

function covered(path: string, by: readonly string[]): boolean {
  return by.some((folder) => path === folder || path.startsWith(`${folder}/`));
}

/**
 * Finds every protected path of `workspace` (real absolute path): those of the one protected
 * list at any depth, every git folder whatever its name, the paths a `.git` file points to, and
 * `extra` workspace-relative paths (a trailing `/` marks a folder). Absent paths are guarded only
 * at the root (and for `extra`); a nested protected path that does not exist yet cannot be
 * guarded by a mount. Never follows symlinks; node_modules is not searched.
 */
export function findProtectedLocations(workspace: string, extra: readonly string[] = []): ProtectedLocations {
  const existing: string[] = [];
  const symlinks: { path: string; target: string; realTarget?: string }[] = [];
  const linked: string[] = [];
  const found = (path: string, kind: 'directory' | 'file' | 'symlink') => {
    if (covered(path, existing)) return;
    if (kind === 'symlink') {
      let target = '';
      try {
        target = posix.resolve(posix.dirname(path), readlinkSync(path));
      } catch {
        // Unreadable link: still a protected path that is a link.
      }
      let realTarget: string | undefined;
      try {
        realTarget = realpathSync(path);
      } catch {
        // Dangling or looping: nothing to protect yet, and the command could create it.
      }
      symlinks.push({ path, target, ...(realTarget === undefined ? {} : { realTarget }) });
      return;
    }
    existing.push(path);
    if (kind === 'file' && posix.basename(path) === '.git') {
      for (const folder of linkedGitFolders(path)) {
        if (covered(folder, [workspace])) {
          if (!covered(folder, existing)) existing.push(folder);
        } else linked.push(folder);
      }
    }
  };

  // Only a name that ends a protected entry can match: the full check runs for few entries.
  const isProtected = (path: string, name: string) =>
    PROTECTED_NAMES.has(name.toLowerCase()) && protectedPathEntry(path.slice(workspace.length + 1)) !== undefined;
  const folders: string[] = [workspace];
  let searched = 0;
  let unsearched = 0;
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    if (searched >= PROTECTED_SEARCH_FOLDERS) {
      unsearched += 1;
      continue;
    }
    searched += 1;
    const listing = listings.list(workspace, folder, isProtected);
    if (!listing) continue;
    // A folder holding HEAD, objects/ and refs/ is a git folder whatever its name: protected whole.
    if (folder !== workspace && listing.gitFolder) {
      found(folder, 'directory');
      continue;
    }
    for (const candidate of listing.candidates) found(candidate.path, candidate.kind);
    folders.push(...listing.subfolders);
  }

  const absent: { path: string; folder: boolean }[] = [];
  const wanted = [
    ...PROTECTED_PATHS.map((entry) => ({ relative: entry.path, folder: entry.extent === 'tree' })),
    ...extra.map((written) => ({ relative: written.replace(/\/+$/, ''), folder: written.endsWith('/') })),
  ];
  for (const { relative, folder } of wanted) {
    const path = posix.join(workspace, relative);
    if (path === workspace || !covered(path, [workspace])) continue;
    const kind = kindOf(path);
    if (kind === 'missing') {
      const parent = posix.dirname(path);
      // A parent that is itself read-only cannot take a mount point, and needs none.
      if (kindOf(parent) === 'directory' && !covered(parent, existing)) absent.push({ path, folder });
    } else found(path, kind);
  }
  const linkedFolders = [...new Set(linked)];
  const writableGitFolders = [
    ...existing
      .filter((path) => kindOf(path) === 'directory' && isGitFolder(path))
      .map((path) => inspectGitFolder(path)),
    // A worktree's own folder (under `worktrees/`) has no objects: its commondir names the repository.
    ...linkedFolders.map((path) => inspectGitFolder(path, isGitFolder(path) ? 'repository' : 'worktree')),
  ].filter((folder): folder is WritableGitFolder => folder !== undefined);
  return {
    existing,
    absent,
    linkedGitFolders: linkedFolders,
    writableGitFolders,
    symlinks,
    unsearchedFolders: unsearched,
  };
}
