// Test support: a real SQLite store in a temp folder, and a tool simulated exactly as the
// FileChangeRecorder port prescribes (beforeChange, the write with node:fs, afterChange).
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileChangeRecorder, FilePreimage } from '@clawsmith/tool-protocol';
import type { HostDatabase } from '../checkpoint-schema.js';
import {
  createCheckpointStore,
  openCheckpointDatabase,
  type CheckpointStore,
  type CheckpointStoreOptions,
} from '../index.js';

export interface OpenedStore {
  readonly db: HostDatabase;
  readonly store: CheckpointStore;
  readonly file: string;
}

/** Opens a store over a fresh database file in `folder`; close with `db.destroy()`. */
export async function openStore(
  folder: string,
  options: Omit<CheckpointStoreOptions, 'db'> = {},
): Promise<OpenedStore> {
  const file = join(folder, 'clawsmith.db');
  const db = await openCheckpointDatabase(file);
  return { db, store: createCheckpointStore({ db, ...options }), file };
}

function preimage(root: string, path: string): FilePreimage {
  const absolute = join(root, path);
  if (!existsSync(absolute)) return { state: 'absent' };
  return { state: 'file', content: readFileSync(absolute), mode: lstatSync(absolute).mode & 0o7777 };
}

const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

/** A tool writing (creating or replacing) `path`. */
export async function toolWrite(
  recorder: FileChangeRecorder,
  root: string,
  path: string,
  content: string | Uint8Array,
  mode?: number,
): Promise<void> {
  await recorder.beforeChange(path, preimage(root, path));
  const absolute = join(root, path);
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileSync(`${absolute}.tool-tmp`, content);
  if (mode !== undefined) chmodSync(`${absolute}.tool-tmp`, mode);
  renameSync(`${absolute}.tool-tmp`, absolute);
  await recorder.afterChange(path, { state: 'file', sha256: sha256(content) });
}

/** A tool deleting `path`. */
export async function toolDelete(recorder: FileChangeRecorder, root: string, path: string): Promise<void> {
  await recorder.beforeChange(path, preimage(root, path));
  rmSync(join(root, path));
  await recorder.afterChange(path, { state: 'absent' });
}

/** A tool renaming `from` to `to`: both are recorded before the move. */
export async function toolRename(recorder: FileChangeRecorder, root: string, from: string, to: string): Promise<void> {
  await recorder.beforeChange(from, preimage(root, from));
  await recorder.beforeChange(to, preimage(root, to));
  renameSync(join(root, from), join(root, to));
  await recorder.afterChange(from, { state: 'absent' });
  await recorder.afterChange(to, { state: 'file', sha256: sha256(readFileSync(join(root, to))) });
}

/** Starts a turn with neutral session data. */
export function beginTurn(store: CheckpointStore, root: string, turnId: string, sessionId = 'session-1') {
  return store.beginTurn({
    sessionId,
    turnId,
    workspaceRoot: root,
    messageCount: 0,
    eventSequence: 0,
    todoSnapshot: [],
  });
}
