import { lstatSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

/**
 * What tells one version of a regular file from another without reading it: the inode, and the
 * size and times that every write changes. Times are in nanoseconds: the kernel gives a file
 * whose times were just read a fresh, distinct time at its next change (multigrain timestamps,
 * Linux 6.13 and later), which a millisecond figure could round away.
 */
export interface FileIdentity {
  readonly device: bigint;
  readonly inode: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

/** The identity of the file `stats` describe. */
export function identityOf(stats: BigIntStats): FileIdentity {
  return { device: stats.dev, inode: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
}

/**
 * Whether `path` (workspace-relative) below `root` is still the very regular file `identity`
 * describes, reached through real folders only (a folder on the way swapped for a symbolic link
 * answers no). A no means "look again", never "changed": the caller then reads the file.
 */
export function stillSameFile(root: string, path: string, identity: FileIdentity): boolean {
  const segments = path.split('/');
  let current = root;
  for (const folder of segments.slice(0, -1)) {
    current = join(current, folder);
    // A folder needs no times: its plain figures spare eighteen BigInts each.
    if (lstatSync(current, { throwIfNoEntry: false })?.isDirectory() !== true) return false;
  }
  const stats = lstatSync(join(current, segments[segments.length - 1]!), { bigint: true, throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return false;
  const now = identityOf(stats);
  return (
    now.device === identity.device &&
    now.inode === identity.inode &&
    now.size === identity.size &&
    now.mtimeNs === identity.mtimeNs &&
    now.ctimeNs === identity.ctimeNs
  );
}

/**
 * What the workspace wall's `expect` mutation compares for the version `identity` describes: the
 * very numbers `lstatSync` gives for it (its `mtimeMs` is computed the same way, from seconds and
 * nanoseconds), so a rename can require the path to still be the version a check read.
 */
export function expectedFigures(identity: FileIdentity): {
  readonly device: number;
  readonly inode: number;
  readonly size: number;
  readonly mtimeMs: number;
} {
  return {
    device: Number(identity.device),
    inode: Number(identity.inode),
    size: Number(identity.size),
    mtimeMs: millisecondsOf(identity.mtimeNs),
  };
}

/** {@link expectedFigures} and the change time, as the wall's `overwrite` compares them with `fstat`'s. */
export function overwriteFigures(identity: FileIdentity): ReturnType<typeof expectedFigures> & {
  readonly ctimeMs: number;
} {
  return { ...expectedFigures(identity), ctimeMs: millisecondsOf(identity.ctimeNs) };
}

/** A time in nanoseconds as Node's `Stats` gives it in milliseconds (from seconds and nanoseconds). */
function millisecondsOf(timeNs: bigint): number {
  let seconds = timeNs / 1_000_000_000n;
  let nanoseconds = timeNs % 1_000_000_000n;
  if (nanoseconds < 0n) {
    seconds -= 1n;
    nanoseconds += 1_000_000_000n;
  }
  return Number(seconds) * 1000 + Number(nanoseconds) / 1_000_000;
}
