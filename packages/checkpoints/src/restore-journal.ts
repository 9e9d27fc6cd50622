import { randomUUID } from 'node:crypto';
import { closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { getBlob } from './blob-store.js';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables, RestoreEntryRow, RestoreJournalRow } from './checkpoint-schema.js';
import { inspectPath, sameState, type FoundState, type UndoConflict } from './file-state.js';
import type { UndoPlan } from './undo-plan.js';
import { writeTransaction } from './write-transaction.js';

/** What an undo batch did. */
export interface UndoResult {
  readonly sessionId: string;
  /** The restore point the session's files went back to. */
  readonly turnId: string;
  /** The turns reverted, newest first; all are now marked undone. */
  readonly undoneTurnIds: readonly string[];
  /** Paths written back to their earlier content (modified or deleted files). */
  readonly restored: readonly string[];
  /** Paths removed because the turns created them. */
  readonly deleted: readonly string[];
  /** Paths that already held their earlier content (a resumed batch finishing). */
  readonly alreadyRestored: readonly string[];
  /**
   * Paths changed by someone after the precheck passed (or while a killed undo waited to be
   * resumed): left exactly as found, never overwritten.
   */
  readonly lateConflicts: readonly UndoConflict[];
  /** Whether this result finishes a batch an earlier, interrupted process started. */
  readonly resumed: boolean;
}

/** Progress of an undo batch, reported after each file. */
export interface UndoProgress {
  readonly path: string;
  readonly index: number;
  readonly total: number;
}

/** Options of an undo. */
export interface UndoOptions {
  /** Called after each file is settled (for progress display). An error here stops the batch, which stays resumable. */
  readonly onProgress?: (progress: UndoProgress) => void | Promise<void>;
}

/** Journals this process is applying right now, so it never "resumes" its own live batch. */
const activeJournals = new Set<string>();

const encodeState = (state: FoundState) => ({ state: state.state, sha256: state.state === 'file' ? state.sha256 : null });
const decodeExpected = (entry: RestoreEntryRow): FoundState =>
  entry.expected_state === 'file' ? { state: 'file', sha256: entry.expected_sha256 ?? '' } : ({ state: entry.expected_state } as FoundState);

/** Whether the process that owns a journal may still be applying it. */
export function journalOwnerAlive(journal: RestoreJournalRow, now: number): boolean {
  if (journal.owner_host !== hostname()) return now - Number(journal.created_at) < 10 * 60 * 1000;
  if (Number(journal.owner_pid) === process.pid) return activeJournals.has(journal.journal_id);
  // A live pid an hour later is far more likely a reused pid than an undo still running.
  if (now - Number(journal.created_at) > 60 * 60 * 1000) return false;
  try {
    process.kill(Number(journal.owner_pid), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Writes the journal of `plan` and marks its turns undone, in one transaction that first
 * checks nobody else undid or added turns since the plan was made.
 */
export async function startJournal(db: Kysely<CheckpointTables>, now: number, plan: UndoPlan): Promise<RestoreJournalRow> {
  const journalId = randomUUID();
  const { point } = plan;
  const journal: RestoreJournalRow = {
    journal_id: journalId,
    session_id: point.session_id,
    turn_id: point.turn_id,
    state: 'applying',
    undone_turn_ids: JSON.stringify(plan.turnIds),
    owner_host: hostname(),
    owner_pid: process.pid,
    created_at: now,
    finished_at: null,
  };
  await writeTransaction(db, async (transaction) => {
    const current = await transaction
      .selectFrom('checkpoint_restore_point')
      .select(['turn_id', 'completed_at'])
      .where('session_id', '=', point.session_id)
      .where('sequence', '>=', point.sequence)
      .where('undone_at', 'is', null)
      .orderBy('sequence', 'desc')
      .execute();
    const busy = await transaction.selectFrom('checkpoint_restore_journal').select('journal_id').where('session_id', '=', point.session_id).where('state', '=', 'applying').executeTakeFirst();
    if (busy !== undefined || current.map((row) => row.turn_id).join('\n') !== plan.turnIds.join('\n') || current.some((row) => row.completed_at === null)) {
      throw new CheckpointError('checkpoint_undo_in_progress', `Session ${point.session_id} changed while this undo was being checked (another undo or a new turn); retry.`, {
        retryable: true,
      });
    }
    await transaction
      .updateTable('checkpoint_restore_point')
      .set({ undone_at: now })
      .where('session_id', '=', point.session_id)
      .where('turn_id', 'in', [...plan.turnIds])
      .execute();
    await transaction
      .insertInto('checkpoint_restore_journal')
      .values(journal)
      .execute();
    const rows = plan.restores.map((restore, ordinal) => {
      const expected = encodeState(restore.expected);
      return {
        journal_id: journalId,
        ordinal,
        workspace_root: restore.workspaceRoot,
        path: restore.path,
        expected_state: expected.state,
        expected_sha256: expected.sha256,
        target_state: restore.target.state,
        target_sha256: restore.target.state === 'file' ? restore.target.sha256 : null,
        target_mode: restore.target.state === 'file' ? restore.target.mode : null,
      };
    });
    for (let start = 0; start < rows.length; start += 100) {
      await transaction.insertInto('checkpoint_restore_entry').values(rows.slice(start, start + 100)).execute();
    }
  });
  activeJournals.add(journalId);
  return journal;
}

/**
 * Takes over a journal whose owner died, recording this process as its owner; false when
 * another process claimed or finished it first.
 */
export async function claimJournal(db: Kysely<CheckpointTables>, journal: RestoreJournalRow): Promise<boolean> {
  const claimed = await writeTransaction(db, async (transaction) => {
    const result = await transaction
      .updateTable('checkpoint_restore_journal')
      .set({ owner_host: hostname(), owner_pid: process.pid })
      .where('journal_id', '=', journal.journal_id)
      .where('state', '=', 'applying')
      .where('owner_host', '=', journal.owner_host)
      .where('owner_pid', '=', journal.owner_pid)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  });
  if (claimed) activeJournals.add(journal.journal_id);
  return claimed;
}

function temporaryName(absolutePath: string, journalId: string): string {
  return join(dirname(absolutePath), `.${basename(absolutePath)}.clawsmith-undo-${journalId.slice(0, 8)}`);
}

function removeIfPresent(absolutePath: string): void {
  try {
    if (!lstatSync(absolutePath).isDirectory()) unlinkSync(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
}

/** Creates the missing folders of `path` below `root`; false when one on the way is not a real folder. */
function ensureFolders(root: string, path: string): boolean {
  let current = root;
  for (const segment of path.split('/').slice(0, -1)) {
    current = join(current, segment);
    try {
      if (!lstatSync(current).isDirectory()) return false;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(current);
    }
  }
  return true;
}

function writeAtomically(absolutePath: string, temporary: string, content: Uint8Array, mode: number): void {
  removeIfPresent(temporary);
  const descriptor = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    let written = 0;
    while (written < content.byteLength) written += writeSync(descriptor, content, written);
    fchmodSync(descriptor, mode);
  } finally {
    closeSync(descriptor);
  }
  try {
    renameSync(temporary, absolutePath);
  } catch (error) {
    removeIfPresent(temporary);
    throw error;
  }
}

type EntryOutcome = 'restored' | 'deleted' | 'already' | UndoConflict;

async function applyEntry(db: Kysely<CheckpointTables>, journalId: string, entry: RestoreEntryRow): Promise<EntryOutcome> {
  const root = entry.workspace_root;
  const absolutePath = join(root, ...entry.path.split('/'));
  const expected = decodeExpected(entry);
  const target: FoundState = entry.target_state === 'file' ? { state: 'file', sha256: entry.target_sha256 ?? '' } : { state: 'absent' };
  const { found } = inspectPath(root, entry.path);
  // A process killed between writing the temporary file and renaming it leaves that file behind.
  if (found.state !== 'symlink') removeIfPresent(temporaryName(absolutePath, journalId));
  if (sameState(found, target)) return 'already';
  if (!sameState(found, expected)) return { path: entry.path, expected, found, reason: 'changed_on_disk' };
  if (target.state === 'absent') {
    unlinkSync(absolutePath);
    return 'deleted';
  }
  const content = await getBlob(db, target.sha256);
  if (content === undefined) {
    throw new CheckpointError('checkpoint_blob_missing', `The stored content of ${entry.path} (${target.sha256}) is missing; this undo cannot restore it.`);
  }
  if (!ensureFolders(root, entry.path)) return { path: entry.path, expected, found: { state: 'other' }, reason: 'changed_on_disk' };
  writeAtomically(absolutePath, temporaryName(absolutePath, journalId), content, Number(entry.target_mode ?? 0o644));
  return 'restored';
}

/**
 * Applies a journal file by file. Each file is replaced by rename (wholly old or wholly new) or
 * unlinked, and only while it still holds what the agent left; a file that already holds its
 * target counts as done, so applying a journal again after a crash finishes it safely.
 */
export async function applyJournal(db: Kysely<CheckpointTables>, now: () => number, journal: RestoreJournalRow, resumed: boolean, options: UndoOptions = {}): Promise<UndoResult> {
  try {
    const entries = await db.selectFrom('checkpoint_restore_entry').selectAll().where('journal_id', '=', journal.journal_id).orderBy('ordinal', 'asc').execute();
    const restored: string[] = [];
    const deleted: string[] = [];
    const alreadyRestored: string[] = [];
    const lateConflicts: UndoConflict[] = [];
    for (const [index, entry] of entries.entries()) {
      const outcome = await applyEntry(db, journal.journal_id, entry);
      if (outcome === 'restored') restored.push(entry.path);
      else if (outcome === 'deleted') deleted.push(entry.path);
      else if (outcome === 'already') alreadyRestored.push(entry.path);
      else lateConflicts.push(outcome);
      await options.onProgress?.({ path: entry.path, index, total: entries.length });
    }
    await db.updateTable('checkpoint_restore_journal').set({ state: 'done', finished_at: now() }).where('journal_id', '=', journal.journal_id).execute();
    return {
      sessionId: journal.session_id,
      turnId: journal.turn_id,
      undoneTurnIds: JSON.parse(journal.undone_turn_ids) as string[],
      restored,
      deleted,
      alreadyRestored,
      lateConflicts,
      resumed,
    };
  } finally {
    activeJournals.delete(journal.journal_id);
  }
}
