// Undo's batched write path: every restored file is written (in place over the file, or as a
// temporary copy), and its fsync is queued on the thread pool as soon as it is written (so the
// disk works while the next files are written); once every file of a group is durable, each copy
// is renamed over its path (if that still holds what was found) while the files it replaces are
// held open, so that they are freed together after the renames rather than one by one inside
// them; then the folders that gained a name are made durable, and only then may the journal say
// `done`. One fsync per file in turn cost about 1 ms each; issued together, the file system
// commits them in a few groups. A crash at any step leaves each copied file wholly old or wholly
// new, a file written in place old, new or cut short (interrupted-overwrite.ts), and the journal
// `applying`: resuming removes leftover temporaries and redoes what is missing.
import { close, closeSync, constants, fsync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RestoreEntryRow } from './checkpoint-schema.js';

/** A restored file whose temporary copy is written (not yet durable) and waits to be renamed. */
export interface StagedWrite {
  readonly entry: RestoreEntryRow;
  readonly index: number;
  readonly temporary: string;
  readonly absolutePath: string;
  /**
   * The `lstat` figures of what the path held when it was checked just before its copy was
   * written (undefined: nothing): the copy replaces only that very file, unchanged.
   */
  readonly held:
    { readonly device: number; readonly inode: number; readonly size: number; readonly mtimeMs: number } | undefined;
  /** A symbolic link's copy has no data to sync (its folder's sync covers it). */
  readonly isFile: boolean;
  /**
   * Written in place over the very file the check read (the wall's `overwrite`): no copy, no
   * rename; only its data to sync. `temporary` is then unused.
   */
  readonly inPlace?: boolean;
  /** Settles when the copy's data is durable (at once for a link); rejects when the sync failed. */
  readonly synced: Promise<void>;
}

// Flushed at this many staged files: a huge undo holds a bounded number of temporaries, and
// progress is reported group by group.
const MOST_STAGED = 128;

/** The writes staged since the last flush, and the paths (and their folders) they will replace. */
export class StagedWrites {
  private writes: StagedWrite[] = [];
  private readonly paths = new Set<string>();
  private readonly folders = new Set<string>();

  /** Adds a staged write whose copy is wholly written, and starts making that copy durable. */
  add(staged: Omit<StagedWrite, 'synced'>): void {
    const synced = staged.isFile
      ? startSync(staged.inPlace === true ? staged.absolutePath : staged.temporary)
      : Promise.resolve();
    const write = { ...staged, synced };
    this.writes.push(write);
    const { path } = write.entry;
    this.paths.add(path);
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1))
      this.folders.add(path.slice(0, slash));
  }

  /**
   * Whether `path` must wait for the staged writes: it lies below or above a path still to be
   * renamed (entries are applied in their journal's order), or too many are staged.
   */
  mustFlushBefore(path: string): boolean {
    if (this.writes.length >= MOST_STAGED || this.folders.has(path)) return true;
    let slash = path.indexOf('/');
    while (slash >= 0) {
      if (this.paths.has(path.slice(0, slash))) return true;
      slash = path.indexOf('/', slash + 1);
    }
    return false;
  }

  /** Takes the staged writes, leaving none. */
  take(): StagedWrite[] {
    const taken = this.writes;
    this.writes = [];
    this.paths.clear();
    this.folders.clear();
    return taken;
  }
}

// Opened read-only without following a link at the end: syncing writes nothing, so a folder a
// command swapped for a link can at worst make this sync some other file. The open is synchronous
// (a few microseconds) and the fsync goes to the thread pool with its close in one callback: the
// sync starts at once, even while this thread goes on writing the next copies without yielding,
// where an awaited open, sync and close each waited for this thread to turn the event loop.
function syncPath(path: string, folder: boolean): Promise<void> {
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | (folder ? constants.O_DIRECTORY : 0));
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return new Promise<void>((resolve, reject) =>
    fsync(descriptor, (error) => {
      closeSync(descriptor);
      if (error) reject(error);
      else resolve();
    }),
  );
}

/**
 * Starts the fsync of a copy on the thread pool. The failure is kept for whoever awaits the
 * promise (a batch cut short by an error may never await it: that is no unhandled rejection).
 */
function startSync(temporary: string): Promise<void> {
  const synced = syncPath(temporary, false);
  synced.catch(() => undefined);
  return synced;
}

/** Waits until every copy of `writes` is durable (their syncs started when they were staged). */
export async function syncTemporaries(writes: readonly StagedWrite[]): Promise<void> {
  await Promise.all(writes.map((write) => write.synced));
}

/** Makes the renames into the folders of `paths` durable. */
export async function syncFoldersOf(paths: readonly string[]): Promise<void> {
  const folders = new Set(paths.map((path) => dirname(path)));
  await Promise.all(
    [...folders].map((folder) =>
      syncPath(folder, true).catch((error: NodeJS.ErrnoException) => {
        // A folder removed since (by a later entry or a person) has no rename left to keep.
        if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR' && error.code !== 'ELOOP') throw error;
      }),
    ),
  );
}

// Linux's O_PATH on the architectures whose value is the generic one; elsewhere nothing is held.
const O_PATH =
  process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64') ? 0o10000000 : undefined;

/**
 * Holds a reference to each file the renames will replace, so the old files are freed when the
 * references are released together afterwards (see {@link releaseReplaced}), not one by one
 * inside each rename. On ext4 the last reference to a freshly written file costs about 2 ms when
 * dropped alone and a fraction of that when many are dropped at once. `O_PATH` opens nothing for
 * reading or writing (a device's driver is not even called); a path that cannot be opened is just
 * not held.
 */
export function holdReplaced(writes: readonly StagedWrite[]): number[] {
  if (O_PATH === undefined) return [];
  const held: number[] = [];
  for (const write of writes) {
    if (write.held === undefined) continue;
    try {
      held.push(openSync(write.absolutePath, O_PATH | constants.O_NOFOLLOW));
    } catch {
      // Gone or unreachable: the rename's own check decides what happens to this path.
    }
  }
  return held;
}

/**
 * Releases the references {@link holdReplaced} took, all at once (the thread pool closes them).
 * Never rejects: a reference that fails to close is gone all the same.
 */
export async function releaseReplaced(held: readonly number[]): Promise<void> {
  await Promise.all(held.map((descriptor) => new Promise<void>((resolve) => close(descriptor, () => resolve()))));
}
