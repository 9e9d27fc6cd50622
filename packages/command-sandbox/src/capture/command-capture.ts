import { readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { ArtifactWriter, FileChangeRecorder } from '@clawsmith/tool-protocol';
import { applyCapturedChanges, type AppliedChanges } from './apply-captured-changes.js';
import {
  createCaptureFolder,
  mountablePath,
  removeCaptureFolder,
  retireCaptureFolder,
  type CaptureFolder,
} from './capture-folder.js';
import { overlayCaptureAvailability } from './overlay-launch.js';
import { protectedPathMatcher } from './protected-paths.js';
import { upperFolderChanges } from './upper-folder-changes.js';

/** Whether `run_command` captures the files a command changes: `auto` wherever the overlay works, `off` never. */
export type CaptureMode = 'auto' | 'off';

/** What became of the files a command changed. */
export type CommandFileChanges =
  | { readonly captured: true; readonly changes: AppliedChanges; readonly keptFolder?: string }
  | {
      readonly captured: false;
      readonly reason: string;
      /** Paths a bounded stat walk before and after saw change: changed outside the checkpoint, not undoable. */
      readonly changedOutsideCheckpoint?: readonly string[];
      /** Set when the walk stopped at this many entries: changes beyond it were not seen. */
      readonly walkLimit?: number;
    };

/** What deciding on capture needs to know. */
export interface CaptureDecision {
  readonly mode: CaptureMode | undefined;
  readonly sandboxOff: boolean;
  readonly bubblewrapProgram: string | undefined;
  /** Folder under which capture folders are made; default the system temporary folder. */
  readonly captureFolder: string | undefined;
  readonly workspaceRoot: string;
}

/** Makes the capture folder for one command, or says why its changes cannot be captured. */
export async function beginCapture(
  decision: CaptureDecision,
): Promise<{ readonly folder: CaptureFolder } | { readonly reason: string }> {
  if (decision.mode === 'off') return { reason: 'capture is off in the configuration' };
  if (decision.sandboxOff) return { reason: 'the sandbox is off' };
  if (process.platform !== 'linux') return { reason: `capture needs Linux (overlayfs); this is ${process.platform}` };
  const availability = await overlayCaptureAvailability(decision.bubblewrapProgram);
  if (!availability.available) return { reason: availability.detail };
  const folder = createCaptureFolder(decision.captureFolder);
  const fromWorkspace = relative(decision.workspaceRoot, folder.root);
  const outside = fromWorkspace.startsWith('..') || isAbsolute(fromWorkspace);
  if (!outside || ![decision.workspaceRoot, folder.upper, folder.work].every(mountablePath)) {
    removeCaptureFolder(folder);
    return { reason: 'the workspace path cannot carry an overlay (it holds the capture folder, or a comma or colon)' };
  }
  return { folder };
}

/** Input of {@link finishCapture}. */
export interface FinishCaptureOptions {
  readonly folder: CaptureFolder;
  readonly workspaceRoot: string;
  readonly protectedPaths: readonly string[];
  readonly recorder?: FileChangeRecorder;
  readonly artifacts?: ArtifactWriter;
}

/**
 * Applies what the command wrote (also after a timeout or a cancel) and retires the capture
 * folder (removed in the background), unless it must keep a conflicting version no artifact store could take.
 */
export async function finishCapture(options: FinishCaptureOptions): Promise<CommandFileChanges> {
  const { folder } = options;
  let keep = false;
  const matcher = protectedPathMatcher(options.protectedPaths);
  try {
    const changes = await applyCapturedChanges({
      workspaceRoot: options.workspaceRoot,
      changes: upperFolderChanges(folder.upper, options.workspaceRoot),
      startedCtimeMs: folder.startedCtimeMs,
      isProtected: matcher.isProtected,
      mountPoints: matcher.mountPoints,
      recorder: options.recorder,
      keepConflict: async (path, source) => {
        if (options.artifacts) {
          const reference = await options.artifacts.write(readFileSync(source), {
            mediaType: 'application/octet-stream',
          });
          return `the command's version is artifact ${reference.id} (read_artifact)`;
        }
        keep = true;
        return `the command's version is kept at ${source}`;
      },
    });
    if (changes.failed.some((failure) => failure.reason.startsWith('not recorded'))) keep = true;
    // A FIFO, socket, device or unrecordable name has no bytes to hand over: the folder keeps it.
    const keptPaths = new Set(changes.kept.map((entry) => entry.path));
    if (changes.unsupported.some((entry) => !keptPaths.has(entry.path))) keep = true;
    return { captured: true, changes, ...(keep ? { keptFolder: folder.upper } : {}) };
  } catch (error) {
    keep = true;
    throw error;
  } finally {
    if (!keep) await retireCaptureFolder(folder);
  }
}
