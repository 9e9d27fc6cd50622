import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { opaqueFolders } from './overlay-opaque-folders.js';

/**
 * Something a command left in the overlay that is never applied to the workspace, because no
 * file tool could make it: special files, hard links, a file with a setuid, setgid or sticky
 * bit. A name that is not valid UTF-8 cannot be recorded (checkpoints keep paths as text).
 */
export type UnsupportedEntry =
  'fifo' | 'socket' | 'device' | 'hard link' | 'setuid/setgid/sticky bit' | 'name not UTF-8';

/** The setuid, setgid and sticky bits: never applied (a folder's are dropped, a file with one is refused). */
export const SPECIAL_MODE_BITS = 0o7000;

/**
 * One change a command made, read from the overlay's upper folder. Paths are
 * workspace-relative with `/`; `source` is the absolute path of the entry in the upper folder.
 */
export type CapturedChange =
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly source: string;
      readonly mode: number;
      readonly size: number;
    }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  /** A folder present in the upper folder: new, copied up to hold changes, or replacing a deleted one (`opaque`). */
  | { readonly kind: 'directory'; readonly path: string; readonly mode: number; readonly opaque: boolean }
  /** A whiteout, or a lower entry hidden by an opaque folder: whatever the workspace has there is gone. */
  | { readonly kind: 'delete'; readonly path: string }
  | {
      readonly kind: 'unsupported';
      readonly path: string;
      readonly entry: UnsupportedEntry;
      /** The command's version in the upper folder, when it is a regular file that can be kept. */
      readonly source?: string;
    };

/** The names in `folder`, sorted, each with whether it survives a UTF-8 round trip. */
export function folderNames(folder: string): { readonly name: string; readonly valid: boolean }[] {
  return readdirSync(folder, { encoding: 'buffer' })
    .map((raw) => {
      const name = raw.toString('utf8');
      return { name, valid: Buffer.byteLength(name) === raw.length && Buffer.from(name).equals(raw) };
    })
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

function isWhiteout(stats: Stats): boolean {
  return stats.isCharacterDevice() && stats.rdev === 0;
}

/**
 * Whether the upper folder `source` may be opaque, given the workspace folder at `path`. Copying
 * a folder up keeps the lower folder's modification time to the nanosecond, and only adding or
 * removing an entry in it changes that; an opaque folder is made fresh by `mkdir` during the
 * command. So an equal time rules opacity out, and only the others are asked about (a `tar`
 * process: the cost a one-file edit would otherwise pay).
 */
function mayBeOpaque(source: string, lower: string, path: string): boolean {
  try {
    return lstatSync(source, { bigint: true }).mtimeNs !== lstatSync(join(lower, path), { bigint: true }).mtimeNs;
  } catch {
    return true;
  }
}

function lowerKind(lower: string, path: string): 'directory' | 'other' | 'missing' {
  try {
    return lstatSync(join(lower, path)).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

/**
 * Turns an overlay's upper folder into the list of changes the command made, parents before
 * children: written files, links and folders, deletions (whiteouts, and the lower entries an
 * opaque folder hides), and entries that are never applied (FIFOs, sockets, device nodes, hard
 * links). Reads only the upper folder and, for folders that exist in both and may be opaque, the
 * lower folder's names: the cost follows what the command changed, never the workspace.
 */
export function upperFolderChanges(upper: string, lower: string): CapturedChange[] {
  const changes: CapturedChange[] = [];
  const candidates: { index: number; path: string }[] = [];
  const walk = (relative: string) => {
    const folder = relative === '' ? upper : join(upper, relative);
    for (const { name, valid } of folderNames(folder)) {
      const path = relative === '' ? name : `${relative}/${name}`;
      if (!valid) {
        changes.push({ kind: 'unsupported', path, entry: 'name not UTF-8' });
        continue;
      }
      const source = join(folder, name);
      const stats = lstatSync(source);
      if (isWhiteout(stats)) changes.push({ kind: 'delete', path });
      else if (stats.isDirectory()) {
        if (lowerKind(lower, path) === 'directory' && mayBeOpaque(source, lower, path))
          candidates.push({ index: changes.length, path });
        changes.push({ kind: 'directory', path, mode: stats.mode & 0o777, opaque: false });
        walk(path);
      } else if (stats.isSymbolicLink()) changes.push({ kind: 'symlink', path, target: readlinkSync(source) });
      else if (stats.isFile()) {
        changes.push(
          stats.nlink > 1
            ? { kind: 'unsupported', path, entry: 'hard link', source }
            : (stats.mode & SPECIAL_MODE_BITS) !== 0
              ? { kind: 'unsupported', path, entry: 'setuid/setgid/sticky bit', source }
              : { kind: 'file', path, source, mode: stats.mode & 0o777, size: stats.size },
        );
      } else {
        const entry: UnsupportedEntry = stats.isFIFO() ? 'fifo' : stats.isSocket() ? 'socket' : 'device';
        changes.push({ kind: 'unsupported', path, entry });
      }
    }
  };
  walk('');
  if (candidates.length === 0) return changes;
  const opaque = opaqueFolders(
    upper,
    candidates.map(({ path }) => path),
  );
  if (opaque.size === 0) return changes;
  // An opaque folder hides everything the lower folder held that the upper one does not: deleted.
  const result: CapturedChange[] = [];
  const byIndex = new Map(candidates.map(({ index, path }) => [index, path]));
  for (const [index, change] of changes.entries()) {
    const path = byIndex.get(index);
    if (path === undefined || !opaque.has(path) || change.kind !== 'directory') {
      result.push(change);
      continue;
    }
    result.push({ ...change, opaque: true });
    const kept = new Set(readdirSync(join(upper, path)));
    for (const { name, valid } of folderNames(join(lower, path))) {
      if (kept.has(name)) continue;
      const hidden = `${path}/${name}`;
      result.push(
        valid ? { kind: 'delete', path: hidden } : { kind: 'unsupported', path: hidden, entry: 'name not UTF-8' },
      );
    }
  }
  return result;
}
