import {
  chmodSync,
  constants,
  copyFileSync,
  lstatSync,
  mkdirSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { FileChangeRecorder, FilePostimage, FilePreimage } from '@clawsmith/tool-protocol';
import type { CapturedChange, UnsupportedEntry } from './upper-folder-changes.js';
import { lstatOrUndefined, preimageOf, readAndHash, subtreeDeepestFirst } from './workspace-entry.js';

/** How one path ended up after the apply. */
export type AppliedKind = 'created' | 'modified' | 'deleted';

/** One path the command changed and clawsmith applied to the workspace. */
export interface AppliedPath {
  /** Workspace-relative path. */
  readonly path: string;
  /** What happened to it. */
  readonly change: AppliedKind;
  /** What it is after the change (or was, when removed). */
  readonly entry: 'file' | 'symlink' | 'directory';
}

/** A path the person changed while the command ran: the person's version stays. */
export interface CaptureConflict {
  /** Workspace-relative path the person changed meanwhile. */
  readonly path: string;
  /** What became of the command's version, in words (an artifact id, or the folder that keeps it). */
  readonly kept: string;
}

/** Everything the apply did and did not do. */
export interface AppliedChanges {
  /** Changes now in the workspace, in the order they were applied. */
  readonly applied: readonly AppliedPath[];
  /** Protected paths the command wrote: never applied. */
  readonly refused: readonly string[];
  /** Where the command's version of each refused or unsupported regular file went (an artifact, or the kept capture folder). */
  readonly kept: readonly { readonly path: string; readonly kept: string }[];
  /** Paths the person changed while the command ran: the person's version stays. */
  readonly conflicts: readonly CaptureConflict[];
  /** Entries a file tool could not make (devices, FIFOs, sockets, hard links, set-id or sticky bits, names not UTF-8): reported, never applied. */
  readonly unsupported: readonly { readonly path: string; readonly entry: UnsupportedEntry }[];
  /** Paths that could not be applied (a folder on the way is a link, an I/O error), with why. */
  readonly failed: readonly { readonly path: string; readonly reason: string }[];
  /** Whether every applied change went through the recorder. */
  readonly recorded: boolean;
  /** Applied paths whose earlier bytes were not kept (too large, or over the checkpoint's per-turn cap): not undoable. */
  readonly notUndoable: readonly string[];
}

/** Input of {@link applyCapturedChanges}. */
export interface ApplyCapturedChangesOptions {
  /** Real absolute path of the workspace. */
  readonly workspaceRoot: string;
  /** The command's changes, as read from the overlay's upper folder. */
  readonly changes: readonly CapturedChange[];
  /** Change time (ms) of the capture marker made just before the command started: later edits are the person's. */
  readonly startedCtimeMs: number;
  /** Whether a workspace-relative path is protected (never written by commands). */
  readonly isProtected: (path: string) => boolean;
  /** Exact protected paths the sandbox mounted over: an empty folder or file left there is its mount point. */
  readonly mountPoints: ReadonlySet<string>;
  /** Where every applied change is recorded for undo (the turn's checkpoint), when wired. */
  readonly recorder?: FileChangeRecorder;
  /** Keeps the command's version of a conflicting file; returns what to tell the person. */
  readonly keepConflict: (path: string, source: string) => Promise<string>;
}

type Operation =
  | { readonly kind: 'file'; readonly path: string; readonly source: string }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  | { readonly kind: 'directory'; readonly path: string; readonly mode: number }
  | { readonly kind: 'remove'; readonly path: string };

/** Pre-image bytes held in memory before they are recorded and the batch applied. */
const BATCH_BYTES = 32 * 1024 * 1024;
const BATCH_OPERATIONS = 2_000;

function postimageOf(absolutePath: string): FilePostimage {
  const stats = lstatOrUndefined(absolutePath);
  if (stats === undefined) return { state: 'absent' };
  if (stats.isFile()) {
    const file = readAndHash(absolutePath, () => false);
    return { state: 'file', sha256: file.sha256, mode: file.mode };
  }
  const preimage = preimageOf(absolutePath, stats);
  return preimage.state === 'file' || preimage.state === 'file-not-kept' ? { state: 'absent' } : preimage;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Applies what a command wrote in its overlay to the real workspace, each change recorded
 * first (pre-images in one batch, then the writes, then the post-images in one batch):
 * files are moved into place with one `rename` (atomic: wholly old or wholly new), links and
 * folders made, deletions done children first. Protected paths are refused, nothing is written
 * through a symbolic link, and a path the person changed after the command started is left as
 * the person has it (a conflict; the command's version is kept by `keepConflict`).
 */
export async function applyCapturedChanges(options: ApplyCapturedChangesOptions): Promise<AppliedChanges> {
  const root = options.workspaceRoot;
  const absolute = (path: string) => join(root, ...path.split('/'));
  const applied: AppliedPath[] = [];
  const refused: string[] = [];
  const kept: { path: string; kept: string }[] = [];
  const keep = async (path: string, source: string) => {
    try {
      // What is kept never carries a bit that could run it with raised privileges.
      chmodSync(source, lstatSync(source).mode & 0o777);
      kept.push({ path, kept: await options.keepConflict(path, source) });
    } catch (error) {
      failed.push({ path, reason: `the command's version could not be kept (${message(error)})` });
    }
  };
  const conflicts: CaptureConflict[] = [];
  const unsupported: { path: string; entry: UnsupportedEntry }[] = [];
  const failed: { path: string; reason: string }[] = [];
  const notUndoable: string[] = [];
  const blocked: string[] = [];
  // Folders checked to be real (or made by this apply, or about to be in the current batch).
  const realFolders = new Set<string>(['']);
  // Paths whose removal is prepared in the current batch: what follows there starts from nothing.
  const pendingRemovals = new Set<string>();
  const changedSince = (stats: Stats | undefined) => stats !== undefined && stats.ctimeMs > options.startedCtimeMs;
  const isBlocked = (path: string) => blocked.some((prefix) => path.startsWith(`${prefix}/`));

  /** Every folder on the way is a real folder (not a link): the one check that keeps writes inside. */
  const parentsAreFolders = (path: string): boolean => {
    const segments = path.split('/');
    let current = '';
    for (const segment of segments.slice(0, -1)) {
      current = current === '' ? segment : `${current}/${segment}`;
      if (realFolders.has(current)) continue;
      const stats = lstatOrUndefined(absolute(current));
      if (stats === undefined || !stats.isDirectory()) return false;
      realFolders.add(current);
    }
    return true;
  };

  // The operations, parents before children; a folder replaced or deleted goes children first.
  const operations: Operation[] = [];
  const removeTree = (path: string, stats: Stats) => {
    for (const entry of subtreeDeepestFirst(root, path, stats)) {
      if (entry.invalidName) unsupported.push({ path: entry.path, entry: 'name not UTF-8' });
      else operations.push({ kind: 'remove', path: entry.path });
    }
  };
  for (const change of options.changes) {
    if (change.kind === 'unsupported') {
      unsupported.push({ path: change.path, entry: change.entry });
      if (change.source !== undefined) await keep(change.path, change.source);
      continue;
    }
    if (options.isProtected(change.path)) {
      const mountPoint =
        options.mountPoints.has(change.path) &&
        (change.kind === 'directory' || (change.kind === 'file' && change.size === 0));
      if (!mountPoint && change.kind !== 'directory') {
        refused.push(change.path);
        if (change.kind === 'file') await keep(change.path, change.source);
      }
      continue;
    }
    const current = lstatOrUndefined(absolute(change.path));
    const currentFolder = current?.isDirectory() === true;
    switch (change.kind) {
      case 'delete':
        if (current === undefined) break;
        if (currentFolder) removeTree(change.path, current);
        else operations.push({ kind: 'remove', path: change.path });
        break;
      case 'directory':
        if (current !== undefined && !currentFolder) operations.push({ kind: 'remove', path: change.path });
        if (!currentFolder || (current.mode & 0o7777) !== change.mode)
          operations.push({ kind: 'directory', path: change.path, mode: change.mode });
        break;
      case 'file':
      case 'symlink':
        if (currentFolder && !changedSince(current)) removeTree(change.path, current);
        operations.push(
          change.kind === 'file'
            ? { kind: 'file', path: change.path, source: change.source }
            : { kind: 'symlink', path: change.path, target: change.target },
        );
        break;
    }
  }

  let recorded = options.recorder !== undefined;
  const record = async (
    phase: 'before' | 'after',
    entries: { path: string; image: FilePreimage | FilePostimage }[],
  ) => {
    const recorder = options.recorder;
    if (recorder === undefined || entries.length === 0) return;
    if (phase === 'before') {
      const batch = entries.map(({ path, image }) => ({ path, preimage: image as FilePreimage }));
      if (recorder.beforeChanges) notUndoable.push(...((await recorder.beforeChanges(batch))?.notKept ?? []));
      else
        for (const { path, preimage } of batch) {
          await recorder.beforeChange(path, preimage);
          if (preimage.state === 'file-not-kept') notUndoable.push(path);
        }
    } else {
      const batch = entries.map(({ path, image }) => ({ path, postimage: image as FilePostimage }));
      if (recorder.afterChanges) await recorder.afterChanges(batch);
      else for (const { path, postimage } of batch) await recorder.afterChange(path, postimage);
    }
  };

  interface Prepared {
    readonly operation: Operation;
    readonly preimage: FilePreimage;
    /** The command's file, read once while deciding (the upper folder no longer changes). */
    readonly incoming?: { readonly sha256: string; readonly mode: number };
  }

  /** Decides one operation against what the workspace holds now; undefined when there is nothing to do. */
  const prepare = async (operation: Operation): Promise<Prepared | undefined> => {
    const { path } = operation;
    if (isBlocked(path)) {
      failed.push({ path, reason: 'a folder above it could not be applied' });
      return undefined;
    }
    if (!parentsAreFolders(path)) {
      failed.push({
        path,
        reason: 'a folder on the way is a symbolic link or not a folder; nothing written through it',
      });
      if (operation.kind === 'directory') blocked.push(path);
      return undefined;
    }
    const target = absolute(path);
    if (pendingRemovals.has(path)) {
      if (operation.kind === 'directory') realFolders.add(path);
      return { operation, preimage: { state: 'absent' } };
    }
    const stats = lstatOrUndefined(target);
    if (operation.kind === 'remove' && stats === undefined) return undefined;
    if (changedSince(stats) && !(operation.kind === 'directory' && stats?.isDirectory())) {
      const kept =
        operation.kind === 'file'
          ? await options.keepConflict(path, operation.source)
          : operation.kind === 'remove'
            ? 'the command deleted it; your version stays'
            : `the command made a ${operation.kind} there; your version stays`;
      conflicts.push({ path, kept });
      if (operation.kind === 'directory') blocked.push(path);
      return undefined;
    }
    const preimage = preimageOf(target, stats);
    let incoming: Prepared['incoming'];
    if (operation.kind === 'file' && preimage.state === 'file') {
      const read = readAndHash(operation.source, () => false);
      incoming = { sha256: read.sha256, mode: read.mode };
      const same =
        read.mode === preimage.mode &&
        read.size === preimage.content.byteLength &&
        createHash('sha256').update(preimage.content).digest('hex') === read.sha256;
      if (same) return undefined;
    }
    if (operation.kind === 'symlink' && preimage.state === 'symlink' && preimage.target === operation.target)
      return undefined;
    if (operation.kind === 'remove') pendingRemovals.add(path);
    if (operation.kind === 'directory') realFolders.add(path);
    return { operation, preimage, ...(incoming ? { incoming } : {}) };
  };

  const sameFilesystem = new Map<string, boolean>();
  const moveIntoPlace = (source: string, target: string) => {
    const folder = dirname(target);
    let same = sameFilesystem.get(folder);
    if (same === undefined) {
      same = lstatSync(source).dev === lstatSync(folder).dev;
      sameFilesystem.set(folder, same);
    }
    if (same) {
      renameSync(source, target);
      return;
    }
    // Another file system: a copy beside the target, then one rename (still wholly old or new).
    const temporary = join(folder, `.${basename(target)}.clawsmith-apply-${randomBytes(4).toString('hex')}`);
    copyFileSync(source, temporary, constants.COPYFILE_EXCL);
    chmodSync(temporary, lstatSync(source).mode & 0o7777);
    renameSync(temporary, target);
  };

  const perform = ({ operation, preimage, incoming }: Prepared): FilePostimage => {
    const target = absolute(operation.path);
    switch (operation.kind) {
      case 'remove':
        if (preimage.state === 'absent') return { state: 'absent' };
        if (preimage.state === 'directory') {
          rmdirSync(target);
          realFolders.delete(operation.path);
        } else unlinkSync(target);
        return { state: 'absent' };
      case 'directory':
        if (lstatOrUndefined(target)?.isDirectory()) chmodSync(target, operation.mode);
        else {
          mkdirSync(target, { mode: operation.mode });
          chmodSync(target, operation.mode);
        }
        realFolders.add(operation.path);
        return { state: 'directory', mode: operation.mode };
      case 'symlink': {
        const temporary = join(
          dirname(target),
          `.${basename(target)}.clawsmith-apply-${randomBytes(4).toString('hex')}`,
        );
        symlinkSync(operation.target, temporary);
        renameSync(temporary, target);
        return { state: 'symlink', target: operation.target };
      }
      case 'file': {
        const written = incoming ?? readAndHash(operation.source, () => false);
        moveIntoPlace(operation.source, target);
        return { state: 'file', sha256: written.sha256, mode: written.mode };
      }
    }
  };

  const flush = async (batch: Prepared[]) => {
    try {
      await record(
        'before',
        batch.map(({ operation, preimage }) => ({ path: operation.path, image: preimage })),
      );
    } catch (error) {
      recorded = false;
      for (const { operation } of batch)
        failed.push({ path: operation.path, reason: `not recorded for undo, so not applied (${message(error)})` });
      return;
    }
    const after: { path: string; image: FilePostimage }[] = [];
    for (const prepared of batch) {
      const { path } = prepared.operation;
      try {
        const postimage = perform(prepared);
        after.push({ path, image: postimage });
        const entry =
          prepared.operation.kind === 'remove'
            ? prepared.preimage.state === 'symlink' || prepared.preimage.state === 'directory'
              ? prepared.preimage.state
              : 'file'
            : prepared.operation.kind;
        const change: AppliedKind =
          prepared.operation.kind === 'remove'
            ? 'deleted'
            : prepared.preimage.state === 'absent'
              ? 'created'
              : 'modified';
        // A folder replaced by a file is reported once, as the file's modification.
        if (!(
          prepared.operation.kind === 'remove' &&
          batch.some((other) => other !== prepared && other.operation.path === path)
        ))
          applied.push({ path, change, entry });
      } catch (error) {
        // Whatever the path holds now is what the turn left there.
        after.push({ path, image: postimageOf(absolute(path)) });
        failed.push({ path, reason: message(error) });
        if (prepared.operation.kind === 'directory') blocked.push(path);
      }
    }
    await record('after', after);
  };

  let batch: Prepared[] = [];
  let batchBytes = 0;
  for (const operation of operations) {
    let prepared: Prepared | undefined;
    try {
      prepared = await prepare(operation);
    } catch (error) {
      failed.push({ path: operation.path, reason: message(error) });
      if (operation.kind === 'directory') blocked.push(operation.path);
      continue;
    }
    if (prepared === undefined) continue;
    batch.push(prepared);
    batchBytes += prepared.preimage.state === 'file' ? prepared.preimage.content.byteLength : 0;
    if (batchBytes >= BATCH_BYTES || batch.length >= BATCH_OPERATIONS) {
      await flush(batch);
      pendingRemovals.clear();
      batch = [];
      batchBytes = 0;
    }
  }
  await flush(batch);
  return { applied, refused, kept, conflicts, unsupported, failed, recorded, notUndoable };
}
