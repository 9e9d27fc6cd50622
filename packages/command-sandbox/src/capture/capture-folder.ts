import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { chmod, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { processIsAlive } from '@clawsmith/platform';

/** The private folders of one captured command: the overlay's upper and work folders. */
export interface CaptureFolder {
  /** Holds `upper` and `work`; removed after the apply. */
  readonly root: string;
  /** Receives every write of the command. */
  readonly upper: string;
  /** overlayfs's own scratch folder (same file system as `upper`). */
  readonly work: string;
  /** An empty folder where the setup step binds the real workspace (git folders are bound from there). */
  readonly lowerView: string;
  /** Change time (ms) of `upper` right after it was made, just before the command starts. */
  readonly startedCtimeMs: number;
}

const CAPTURE_PREFIX = 'clawsmith-capture-';

/** Characters the mount option string cannot carry safely: such paths are not captured. */
const UNSAFE_FOR_MOUNT = /[,:\\"\n]/;

/** Whether `path` can appear in an overlay mount option string. */
export function mountablePath(path: string): boolean {
  return !UNSAFE_FOR_MOUNT.test(path);
}

// Capture folders (and overlay probes) in use, removed if the process exits meanwhile (Ctrl-C
// handled by process.exit): an exit skips the finally blocks that would remove them.
const inUse = new Map<string, string>();
let exitHook = false;

/** Removes `folder` (a capture folder's shape: `root` holding `work`) if this process exits before it is removed. */
export function removeOnExit(folder: Pick<CaptureFolder, 'root' | 'work'>): void {
  inUse.set(folder.root, folder.work);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const [root, work] of inUse) removeAtExit(root, work);
  });
}

const EXIT_PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Removes a capture folder while the process exits. The command may still be writing into it
 * (its sandbox ends only after this process), so a removal that fails is tried again for a short
 * while; one that still fails is renamed aside as a dead process's leftover, which the next
 * clawsmith process sweeps.
 */
function removeAtExit(root: string, work: string): void {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    try {
      removeCaptureFolder({ root, work });
      return;
    } catch {
      Atomics.wait(EXIT_PAUSE, 0, 0, 20);
    }
  }
  try {
    renameSync(
      root,
      join(dirname(root), `${RETIRED_PREFIX}${process.pid}-${basename(root).slice(CAPTURE_PREFIX.length)}`),
    );
  } catch {
    // Nothing more can be done while exiting.
  }
}

/** Makes a fresh capture folder below `base` (default the system temporary folder), private to this user. */
export function createCaptureFolder(base = tmpdir()): CaptureFolder {
  sweepRetiredFolders(base);
  const root = mkdtempSync(join(base, CAPTURE_PREFIX));
  chmodSync(root, 0o700);
  const upper = join(root, 'upper');
  const work = join(root, 'work');
  const lowerView = join(root, 'lower');
  mkdirSync(work);
  mkdirSync(upper);
  mkdirSync(lowerView);
  removeOnExit({ root, work });
  return { root, upper, work, lowerView, startedCtimeMs: lstatSync(upper).ctimeMs };
}

/** Removes a capture folder, including overlayfs's `work/work`, which it leaves without permissions. */
export function removeCaptureFolder(folder: Pick<CaptureFolder, 'root' | 'work'>): void {
  inUse.delete(folder.root);
  try {
    chmodSync(join(folder.work, 'work'), 0o700);
  } catch {
    // Not made (the overlay never mounted) or already gone.
  }
  rmSync(folder.root, { recursive: true, force: true });
}

// A finished capture folder is renamed aside and removed in the background: removing it (the
// empty mount points of the absent protected paths land in it) was the largest part of what
// capture added to a call. The name carries the owner's process id, so that a later process can
// tell a crashed owner's leftover (swept) from a live one's removal in progress (left alone).
const RETIRED_PREFIX = 'clawsmith-retired-capture-';
/** Removals in flight at most; one more call waits for the oldest, so a burst cannot pile up folders. */
const MAX_PENDING_REMOVALS = 16;
const pendingRemovals = new Set<Promise<void>>();
const sweptBases = new Set<string>();

async function removeRetired(path: string): Promise<void> {
  await chmod(join(path, 'work', 'work'), 0o700).catch(() => undefined);
  await rm(path, { recursive: true, force: true });
}

function track(path: string): void {
  const removal: Promise<void> = removeRetired(path)
    // A folder that cannot be removed now stays for the sweep of a later process.
    .catch(() => undefined)
    .finally(() => pendingRemovals.delete(removal));
  pendingRemovals.add(removal);
}

/**
 * Ends the life of a capture folder without waiting for its removal: renamed aside at once (so
 * its name is free and it is known to be finished), removed in the background. Waits only when
 * {@link MAX_PENDING_REMOVALS} removals are already in flight. {@link settleCaptureFolders}
 * awaits them all.
 */
export async function retireCaptureFolder(folder: Pick<CaptureFolder, 'root' | 'work'>): Promise<void> {
  const retired = join(
    dirname(folder.root),
    `${RETIRED_PREFIX}${process.pid}-${basename(folder.root).slice(CAPTURE_PREFIX.length)}`,
  );
  try {
    renameSync(folder.root, retired);
    inUse.delete(folder.root);
  } catch {
    removeCaptureFolder(folder);
    return;
  }
  while (pendingRemovals.size >= MAX_PENDING_REMOVALS) await Promise.race(pendingRemovals);
  track(retired);
}

/** Resolves once every capture folder this process retired is removed (call before exiting). */
export async function settleCaptureFolders(): Promise<void> {
  while (pendingRemovals.size > 0) await Promise.all(pendingRemovals);
}

function ownerAlive(pid: number): boolean {
  return pid === process.pid || processIsAlive(pid);
}

/**
 * Once per process and base folder: removes (in the background) retired capture folders whose
 * process died before removing them. Only this user's own folders, never through a link; a
 * folder whose owner still runs is its owner's to remove.
 */
function sweepRetiredFolders(base: string): void {
  if (sweptBases.has(base)) return;
  sweptBases.add(base);
  let names: string[];
  try {
    names = readdirSync(base).filter((name) => name.startsWith(RETIRED_PREFIX));
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const pid = Number.parseInt(name.slice(RETIRED_PREFIX.length), 10);
    if (!Number.isSafeInteger(pid) || pid <= 0 || ownerAlive(pid)) continue;
    const path = join(base, name);
    try {
      const stats = lstatSync(path);
      if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) continue;
    } catch {
      continue;
    }
    track(path);
  }
}
