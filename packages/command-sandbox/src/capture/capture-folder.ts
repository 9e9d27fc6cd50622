import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The private folders of one captured command: the overlay's upper and work folders. */
export interface CaptureFolder {
  /** Holds `upper` and `work`; removed after the apply. */
  readonly root: string;
  /** Receives every write of the command. */
  readonly upper: string;
  /** overlayfs's own scratch folder (same file system as `upper`). */
  readonly work: string;
  /** Change time (ms) of `upper` right after it was made, just before the command starts. */
  readonly startedCtimeMs: number;
}

/** Characters the mount option string cannot carry safely: such paths are not captured. */
const UNSAFE_FOR_MOUNT = /[,:\\"\n]/;

/** Whether `path` can appear in an overlay mount option string. */
export function mountablePath(path: string): boolean {
  return !UNSAFE_FOR_MOUNT.test(path);
}

/** Makes a fresh capture folder below `base` (default the system temporary folder), private to this user. */
export function createCaptureFolder(base = tmpdir()): CaptureFolder {
  const root = mkdtempSync(join(base, 'clawsmith-capture-'));
  chmodSync(root, 0o700);
  const upper = join(root, 'upper');
  const work = join(root, 'work');
  mkdirSync(work);
  mkdirSync(upper);
  return { root, upper, work, startedCtimeMs: lstatSync(upper).ctimeMs };
}

/** Removes a capture folder, including overlayfs's `work/work`, which it leaves without permissions. */
export function removeCaptureFolder(folder: Pick<CaptureFolder, 'root' | 'work'>): void {
  try {
    chmodSync(join(folder.work, 'work'), 0o700);
  } catch {
    // Not made (the overlay never mounted) or already gone.
  }
  rmSync(folder.root, { recursive: true, force: true });
}
