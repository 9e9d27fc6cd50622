// Test support: a real store on the test project's engine (a SQLite file in a temp folder, or a
// database of its own on the run's PostgreSQL server), and a tool simulated exactly as the
// FileChangeRecorder port prescribes (beforeChange, the write with node:fs, afterChange).
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openPostgresDatabase } from '@clawsmith/platform';
import { testDatabaseLocation } from '@clawsmith/test-utils/postgres';
import type { FileChangeRecorder, FilePreimage } from '@clawsmith/tool-protocol';
import type { HostDatabase } from '../checkpoint-schema.js';
import {
  createCheckpointStore,
  migrateCheckpoints,
  openCheckpointDatabase,
  type CheckpointStore,
  type CheckpointStoreOptions,
} from '../index.js';

export interface OpenedStore {
  readonly db: HostDatabase;
  readonly store: CheckpointStore;
  /** Where the database is: the SQLite file, or the PostgreSQL URL (what `openDatabaseAt` takes). */
  readonly file: string;
}

/** Opens the checkpoint database at `location` (a SQLite file or a `postgres://` URL), migrated. */
export async function openDatabaseAt(location: string): Promise<HostDatabase> {
  if (!location.startsWith('postgres')) return openCheckpointDatabase(location);
  const { db } = await openPostgresDatabase(location);
  await migrateCheckpoints(db);
  return db;
}

/** Opens a store over a fresh database (in `folder` on SQLite); close with `db.destroy()`. */
export async function openStore(
  folder: string,
  options: Omit<CheckpointStoreOptions, 'db'> = {},
): Promise<OpenedStore> {
  const location = await testDatabaseLocation(folder);
  const file = 'file' in location ? location.file : location.url;
  const db = await openDatabaseAt(file);
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
