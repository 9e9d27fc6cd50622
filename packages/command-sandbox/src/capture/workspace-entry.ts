import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FilePreimage } from '@clawsmith/tool-protocol';
import { folderNames } from './upper-folder-changes.js';

/** `lstat` of a path, or undefined when nothing is there (or a folder on the way is not one). */
export function lstatOrUndefined(absolutePath: string): Stats | undefined {
  try {
    return lstatSync(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

const CHUNK = 1024 * 1024;

/** Reads a regular file through `O_NOFOLLOW` and hashes it; `keep` decides whether its bytes are returned too. */
export function readAndHash(
  absolutePath: string,
  keep: (size: number) => boolean,
): { sha256: string; content?: Buffer; mode: number; size: number } {
  const descriptor = openSync(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw Object.assign(new Error(`${absolutePath} is not a regular file`), { code: 'EINVAL' });
    const hash = createHash('sha256');
    const kept = keep(stats.size) ? Buffer.allocUnsafe(stats.size) : undefined;
    const chunk = kept ?? Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, stats.size)));
    let total = 0;
    for (;;) {
      const into = kept ?? chunk;
      const offset = kept ? total : 0;
      const length = kept ? kept.length - total : chunk.length;
      if (length === 0) break;
      const read = readSync(descriptor, into, offset, length, null);
      if (read === 0) break;
      hash.update(into.subarray(offset, offset + read));
      total += read;
    }
    return {
      sha256: hash.digest('hex'),
      ...(kept ? { content: kept.subarray(0, total) } : {}),
      mode: stats.mode & 0o7777,
      size: total,
    };
  } finally {
    closeSync(descriptor);
  }
}

/** A file larger than this is hashed, not held in memory: its pre-image is recorded as not kept. */
export const LARGEST_KEPT_PREIMAGE_BYTES = 64 * 1024 * 1024;

/** What a workspace path holds, as the recorder's pre-image, with the bytes of a file read at most once. */
export function preimageOf(absolutePath: string, stats: Stats | undefined): FilePreimage {
  if (stats === undefined) return { state: 'absent' };
  if (stats.isSymbolicLink()) return { state: 'symlink', target: readlinkSync(absolutePath) };
  if (stats.isDirectory()) return { state: 'directory', mode: stats.mode & 0o7777 };
  const file = readAndHash(absolutePath, (size) => size <= LARGEST_KEPT_PREIMAGE_BYTES);
  if (file.content === undefined)
    return { state: 'file-not-kept', sha256: file.sha256, mode: file.mode, bytes: file.size };
  return { state: 'file', content: file.content, mode: file.mode };
}

/** One entry of a workspace subtree, children listed before their folder. */
export interface SubtreeEntry {
  readonly path: string;
  readonly stats: Stats;
  /** Set when the name is not valid UTF-8: it cannot be recorded, so it is not touched. */
  readonly invalidName?: true;
}

/** Every entry below and including `path` (workspace-relative), deepest first, without following links. */
export function subtreeDeepestFirst(root: string, path: string, stats: Stats): SubtreeEntry[] {
  const entries: SubtreeEntry[] = [];
  const walk = (relative: string, own: Stats) => {
    if (own.isDirectory()) {
      for (const { name, valid } of folderNames(join(root, relative))) {
        const child = `${relative}/${name}`;
        if (!valid) {
          entries.push({ path: child, stats: own, invalidName: true });
          continue;
        }
        walk(child, lstatSync(join(root, child)));
      }
    }
    entries.push({ path: relative, stats: own });
  };
  walk(path, stats);
  return entries;
}
