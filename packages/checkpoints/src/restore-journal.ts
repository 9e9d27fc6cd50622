import { randomUUID } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { processIsAlive } from '@clawsmith/platform';
import type { WorkspaceMutation, WorkspaceWall } from '@clawsmith/tool-protocol';
import { sql, type Kysely } from 'kysely';
import { BLOBS_PER_FETCH, bodiesKeptWhole, findBlobs, readBlobChunks, type StoredBlob } from './blob-store.js';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables, RestoreEntryRow, RestoreJournalRow } from './checkpoint-schema.js';
import {
  inspectPath,
  readRegularFile,
  sameMode,
  sameState,
  symlinkDigest,
  type FoundState,
  type UndoConflict,
} from './file-state.js';
import { isInterruptedOverwrite } from './interrupted-overwrite.js';
import {
  holdReplaced,
  releaseReplaced,
  StagedWrites,
  syncFoldersOf,
  syncTemporaries,
  type StagedWrite,
} from './staged-writes.js';
import { expectedFigures, overwriteFigures, stillSameFile, type FileIdentity } from './file-identity.js';
import type { PlannedRestore, RestoreTarget, UndoPlan } from './undo-plan.js';
import { writeTransaction } from './write-transaction.js';
import { writeJournalDone, writeJournalStart, type JournalDatabase } from './journal-writes.js';

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
  /** Paths the undone turns changed whose earlier bytes were not kept (over the pre-image cap): left as they are. */
  readonly notUndoable: readonly string[];
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

const encodeState = (state: FoundState) => ({
  state: state.state,
  sha256:
    state.state === 'file'
      ? state.sha256
      : state.state === 'symlink'
        ? 'target' in state
          ? symlinkDigest(state.target)
          : state.sha256
        : null,
});
const decodeExpected = (entry: RestoreEntryRow): FoundState =>
  entry.expected_state === 'file' || entry.expected_state === 'symlink'
    ? ({ state: entry.expected_state, sha256: entry.expected_sha256 ?? '' } as FoundState)
    : ({ state: entry.expected_state } as FoundState);
const decodeTarget = (entry: RestoreEntryRow): RestoreTarget => {
  const mode = Number(entry.target_mode ?? 0o644);
  switch (entry.target_state) {
    case 'file':
      return { state: 'file', sha256: entry.target_sha256 ?? '', mode };
    case 'symlink':
      return { state: 'symlink', sha256: entry.target_sha256 ?? '' };
    case 'directory':
      return { state: 'directory', mode: Number(entry.target_mode ?? 0o755) };
    default:
      return { state: 'absent' };
  }
};

/** Whether the process that owns a journal may still be applying it. */
export function journalOwnerAlive(journal: RestoreJournalRow, now: number): boolean {
  if (journal.owner_host !== hostname()) return now - Number(journal.created_at) < 10 * 60 * 1000;
  if (Number(journal.owner_pid) === process.pid) return activeJournals.has(journal.journal_id);
  // A live pid an hour later is far more likely a reused pid than an undo still running.
  if (now - Number(journal.created_at) > 60 * 60 * 1000) return false;
  return processIsAlive(Number(journal.owner_pid));
}

/** A journal just written, with its entries (so applying it need not read them back). */
export interface StartedJournal {
  readonly journal: RestoreJournalRow;
  readonly entries: readonly RestoreEntryRow[];
  /** By ordinal: the regular file the plan just read at the entry's path, if any (see {@link PlannedRestore}). */
  readonly seen: readonly PlannedRestore['seen'][];
}

/**
 * Writes the journal of `plan` and marks its turns undone, in one transaction whose marking
 * statement itself checks that nobody else undid or added turns since the plan was made.
 */
export async function startJournal(database: JournalDatabase, now: number, plan: UndoPlan): Promise<StartedJournal> {
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
  const entries: RestoreEntryRow[] = plan.restores.map((restore, ordinal) => {
    const expected = encodeState(restore.expected);
    return {
      journal_id: journalId,
      ordinal,
      workspace_root: restore.workspaceRoot,
      path: restore.path,
      expected_state: expected.state,
      expected_sha256: expected.sha256,
      target_state: restore.target.state,
      target_sha256:
        restore.target.state === 'file' || restore.target.state === 'symlink' ? restore.target.sha256 : null,
      target_mode: restore.target.state === 'file' || restore.target.state === 'directory' ? restore.target.mode : null,
    };
  });
  await writeJournalStart(
    database,
    { sessionId: point.session_id, sequence: point.sequence, turnIds: plan.turnIds },
    journal,
    entries,
  );
  activeJournals.add(journalId);
  return { journal, entries, seen: plan.restores.map((restore) => restore.seen) };
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

/** The missing folders of `path` below `root`, to create; undefined when one on the way is not a real folder. */
function missingFolders(root: string, path: string): string[] | undefined {
  const missing: string[] = [];
  let current = root;
  for (const segment of path.split('/').slice(0, -1)) {
    current = join(current, segment);
    if (missing.length > 0) {
      missing.push(current);
      continue;
    }
    try {
      if (!lstatSync(current).isDirectory()) return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(current);
    }
  }
  return missing;
}

// The wall (or the file system) refused a write that a racing command redirected outside the workspace.
const REFUSED_BY_WALL = new Set(['EROFS', 'EXDEV', 'EACCES', 'EOUTSIDE', 'ELOOP', 'ENOTDIR', 'ENOENT']);

const CLEAN_RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.{1,2}(?:\/|$))(?!.*\/\/)[^\0]+$/;

/**
 * A journal read back from the database (to resume it) is applied only if every entry names a
 * clean workspace-relative path that one of its undone turns changed, in that turn's recorded
 * workspace. Anything else (a row forged by whoever could write the database) rejects the whole
 * journal before a byte changes, and marks it `rejected` so it is never tried again.
 */
async function assertTrustedEntries(
  db: Kysely<CheckpointTables>,
  journal: RestoreJournalRow,
  entries: readonly RestoreEntryRow[],
  now: number,
): Promise<void> {
  let turnIds: unknown;
  try {
    turnIds = JSON.parse(journal.undone_turn_ids);
  } catch {
    turnIds = undefined;
  }
  const valid = Array.isArray(turnIds) && turnIds.length > 0 && turnIds.every((id) => typeof id === 'string');
  const ids = valid ? (turnIds as string[]) : [];
  const points = valid
    ? await db
        .selectFrom('checkpoint_restore_point')
        .select(['workspace_root'])
        .where('session_id', '=', journal.session_id)
        .where('turn_id', 'in', ids)
        .execute()
    : [];
  const changes = valid
    ? await db
        .selectFrom('checkpoint_file_change')
        .select(['path'])
        .where('session_id', '=', journal.session_id)
        .where('turn_id', 'in', ids)
        .execute()
    : [];
  const roots = new Set(points.map((point) => point.workspace_root));
  const paths = new Set(changes.map((change) => change.path));
  const forged = entries.find(
    (entry) => !roots.has(entry.workspace_root) || !paths.has(entry.path) || !CLEAN_RELATIVE_PATH.test(entry.path),
  );
  if (valid && points.length === ids.length && forged === undefined) return;
  await sql`update checkpoint_restore_journal set state = 'rejected', finished_at = ${now} where journal_id = ${journal.journal_id}`.execute(
    db,
  );
  throw new CheckpointError(
    'checkpoint_journal_invalid',
    `The interrupted undo ${journal.journal_id} names ${forged ? `${JSON.stringify(forged.path)} in ${forged.workspace_root}` : 'turns'} that its session's checkpoints never recorded; it was rejected and nothing was changed. Undo again from 'clawsmith checkpoints'.`,
  );
}

type EntryOutcome = 'restored' | 'deleted' | 'already' | UndoConflict;

function requireBody(bodies: ReadonlyMap<string, StoredBlob>, entry: RestoreEntryRow, sha256: string): StoredBlob {
  const content = bodies.get(sha256);
  if (content === undefined) {
    throw new CheckpointError(
      'checkpoint_blob_missing',
      `The stored content of ${entry.path} (${sha256}) is missing; this undo cannot restore it.`,
    );
  }
  return content;
}

/**
 * An entry's outcome, or `staged`: its temporary copy is written and waits in `staged`.
 * `resumed`: the journal was started by a process that may have died leaving temporary copies.
 */
async function applyEntry(
  db: Kysely<CheckpointTables>,
  wall: WorkspaceWall,
  bodies: ReadonlyMap<string, StoredBlob>,
  journalId: string,
  entry: RestoreEntryRow,
  index: number,
  staged: StagedWrites,
  resumed: boolean,
  seen: PlannedRestore['seen'],
  keptWhole: ReadonlySet<string>,
): Promise<EntryOutcome | 'staged'> {
  const root = entry.workspace_root;
  const absolutePath = join(root, ...entry.path.split('/'));
  const expected = decodeExpected(entry);
  const target = decodeTarget(entry);
  // The plan has just hashed this file: while it is still that very version (one lstat per
  // folder and one for the file), its hash is known and reading it again would only cost time.
  const unchanged = seen !== undefined && stillSameFile(root, entry.path, seen.identity);
  const checked = unchanged ? seen : inspectPath(root, entry.path);
  // A file the killed process left half written in place is its own work, finished like the
  // version the journal expected.
  const found =
    resumed && (await interruptedOverwriteAt(db, bodies, absolutePath, checked.found, expected, target))
      ? expected
      : checked.found;
  const temporary = temporaryName(absolutePath, journalId);
  // A process killed between writing the temporary file and renaming it leaves that file behind.
  // A journal this process just started has none (its id is new): nothing to remove, one
  // system call per file saved. Should one exist all the same, creating the copy (`O_EXCL`) fails
  // and the file is reported as a conflict, untouched.
  if (resumed && !(found.state === 'symlink' && 'onTheWay' in found))
    await wall.apply({ workspaceRoot: root, mutations: [], cleanup: [temporary] });
  if (sameState(found, target) && sameMode(target, found)) return 'already';
  const conflict = (seen: FoundState = found): UndoConflict => ({
    path: entry.path,
    expected,
    found: seen,
    reason: 'changed_on_disk',
  });
  if (!sameState(found, expected) && !sameState(found, target)) return conflict();
  // Every change goes through the wall: a folder a command swapped for a symbolic link since the
  // check above cannot carry it outside the workspace. A folder is removed only when empty.
  const run = async (mutations: WorkspaceMutation[], done: EntryOutcome, cleanup: string[] = []) => {
    try {
      await wall.apply({ workspaceRoot: root, mutations, cleanup });
      return done;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOTEMPTY' || code === 'EEXIST') return conflict();
      if (REFUSED_BY_WALL.has(code)) return conflict({ state: 'other' });
      throw error;
    }
  };
  const removal: WorkspaceMutation[] =
    found.state === 'absent'
      ? []
      : [found.state === 'directory' ? { kind: 'rmdir', path: absolutePath } : { kind: 'unlink', path: absolutePath }];
  if (target.state === 'absent') return run(removal, 'deleted');
  // A file still that very version was just reached through real folders: none is missing.
  const folders = unchanged ? [] : missingFolders(root, entry.path);
  if (folders === undefined) return conflict({ state: 'other' });
  const makeFolders = folders.map((folder): WorkspaceMutation => ({ kind: 'mkdir', path: folder }));
  if (target.state === 'directory') {
    const make: WorkspaceMutation[] =
      found.state === 'directory' ? [] : [...removal, { kind: 'mkdir', path: absolutePath, mode: target.mode }];
    return run([...makeFolders, ...make, { kind: 'chmod', path: absolutePath, mode: target.mode }], 'restored');
  }
  const body = requireBody(bodies, entry, target.sha256);
  // In place when a write cut short could be recognised after a crash: the agent's bytes are
  // kept whole (see interrupted-overwrite.ts). No new inode, no freed blocks, no rename.
  if (
    target.state === 'file' &&
    found.state === 'file' &&
    body.content !== undefined &&
    checked.identity !== undefined &&
    expected.state === 'file' &&
    keptWhole.has(expected.sha256)
  ) {
    const written = await overwriteInPlace(wall, entry, absolutePath, body.content, target.mode, checked.identity);
    if (written === 'written') {
      staged.add({ entry, index, temporary, absolutePath, held: undefined, isFile: true, inPlace: true });
      return 'staged';
    }
    if (written !== 'by copy') return written;
  }
  const clearFolder: WorkspaceMutation[] = found.state === 'directory' ? removal : [];
  // The copy is synced and renamed over the path with the rest of its group (staged-writes.ts).
  // A body stored in pieces is written as its first piece, then one append per piece read, the
  // mode set with the last: only one piece is ever in memory.
  const pieces = body.content === undefined ? readBlobChunks(db, body) : undefined;
  const first = pieces === undefined ? undefined : await pieces.next();
  const content = body.content ?? (first?.done === false ? first.value : Buffer.alloc(0));
  const streamed = pieces !== undefined && target.state === 'file';
  const place: WorkspaceMutation =
    target.state === 'symlink'
      ? { kind: 'symlink', target: content.toString(), path: temporary }
      : {
          kind: 'create',
          path: temporary,
          content,
          mode: streamed && target.mode !== undefined ? 0o600 : target.mode,
          sync: false,
        };
  let outcome = await run([...makeFolders, ...clearFolder, place], 'restored');
  if (streamed && outcome === 'restored')
    outcome = await appendPieces(wall, root, temporary, pieces, target.mode, conflict);
  if (outcome !== 'restored') {
    await wall.apply({ workspaceRoot: root, mutations: [], cleanup: [temporary] });
    return outcome;
  }
  staged.add({
    entry,
    index,
    temporary,
    absolutePath,
    held: heldAtPath(absolutePath, found, checked.identity, clearFolder.length > 0),
    isFile: target.state === 'file',
  });
  return 'staged';
}

/**
 * On resume: whether the file at `absolutePath` is what this journal's in-place write of the
 * target over the expected file leaves when the process dies during it (both bodies kept whole).
 */
async function interruptedOverwriteAt(
  db: Kysely<CheckpointTables>,
  bodies: ReadonlyMap<string, StoredBlob>,
  absolutePath: string,
  found: FoundState,
  expected: FoundState,
  target: RestoreTarget,
): Promise<boolean> {
  if (found.state !== 'file' || expected.state !== 'file' || target.state !== 'file') return false;
  if (sameState(found, expected) || sameState(found, target)) return false;
  const targetBody = bodies.get(target.sha256)?.content;
  const writtenBody = (await findBlobs(db, [expected.sha256])).get(expected.sha256)?.content;
  if (targetBody === undefined || writtenBody === undefined) return false;
  const file = readRegularFile(absolutePath);
  return file !== undefined && isInterruptedOverwrite(file.content, targetBody, writtenBody);
}

/**
 * Writes `content` over the file at `absolutePath` if it is still the very version `identity`
 * describes (else a late conflict, nothing written). `by copy`: it has other names, or this
 * process may not write it or set its mode, and nothing was written: the copy and rename take over.
 */
async function overwriteInPlace(
  wall: WorkspaceWall,
  entry: RestoreEntryRow,
  absolutePath: string,
  content: Buffer,
  mode: number | undefined,
  identity: FileIdentity,
): Promise<'written' | 'by copy' | UndoConflict> {
  const root = entry.workspace_root;
  const conflict = (found: FoundState): UndoConflict => ({
    path: entry.path,
    expected: decodeExpected(entry),
    found,
    reason: 'changed_on_disk',
  });
  try {
    await wall.apply({
      workspaceRoot: root,
      mutations: [
        {
          kind: 'overwrite',
          path: absolutePath,
          content,
          ...(mode === undefined ? {} : { mode }),
          sync: false,
          ...overwriteFigures(identity),
        },
      ],
    });
    return 'written';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EMLINK' || code === 'EACCES' || code === 'EPERM') return 'by copy';
    if (code === 'ECHANGED' || code === 'ENOENT') return conflict(inspectPath(root, entry.path).found);
    if (REFUSED_BY_WALL.has(code)) return conflict({ state: 'other' });
    throw error;
  }
}

/**
 * What the copy of an entry may replace at its path: the very version of the file the check just
 * read (its identity), so a change made since is a late conflict, never overwritten unread;
 * nothing when the path held nothing (or a folder, removed before the copy was written); else,
 * for a link, whatever `lstat` finds there now.
 */
function heldAtPath(
  absolutePath: string,
  found: FoundState,
  identity: FileIdentity | undefined,
  folderCleared: boolean,
): StagedWrite['held'] {
  if (folderCleared || found.state === 'absent') return undefined;
  if (identity !== undefined) return expectedFigures(identity);
  const left = lstatSync(absolutePath, { throwIfNoEntry: false });
  return left && { device: left.dev, inode: left.ino, size: left.size, mtimeMs: left.mtimeMs };
}

/** Appends the remaining pieces of a body to its temporary copy, the mode with the last; a refusal is a conflict. */
async function appendPieces(
  wall: WorkspaceWall,
  root: string,
  temporary: string,
  pieces: AsyncGenerator<Buffer>,
  mode: number | undefined,
  conflict: (seen: FoundState) => UndoConflict,
): Promise<EntryOutcome> {
  let piece = await pieces.next();
  while (piece.done === false) {
    const next = await pieces.next();
    const last = next.done === true;
    try {
      await wall.apply({
        workspaceRoot: root,
        mutations: [{ kind: 'append', path: temporary, content: piece.value, sync: false, ...(last ? { mode } : {}) }],
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      // The copy was swapped or removed under us (only someone with write access to the folder can).
      if (REFUSED_BY_WALL.has(code) || code === 'ENOENT' || code === 'ELOOP' || code === 'EINVAL')
        return conflict({ state: 'other' });
      throw error;
    }
    piece = next;
  }
  return 'restored';
}

/** Renames one synced copy over its path if the path still holds what it held when the copy was written. */
async function renameStaged(wall: WorkspaceWall, write: StagedWrite): Promise<EntryOutcome> {
  const { entry, temporary, absolutePath, held } = write;
  const root = entry.workspace_root;
  const conflict = (seen: FoundState): UndoConflict => ({
    path: entry.path,
    expected: decodeExpected(entry),
    found: seen,
    reason: 'changed_on_disk',
  });
  // The path must still be the very file found when the copy was written (a path that was
  // absent must still be: a link fails rather than replace what someone created meanwhile).
  const mutations: WorkspaceMutation[] = held
    ? [
        { kind: 'expect', path: absolutePath, ...held },
        { kind: 'rename', from: temporary, to: absolutePath },
      ]
    : [{ kind: 'link', from: temporary, to: absolutePath }];
  try {
    // A renamed copy has no name left to remove (one system call per file saved); a linked one
    // keeps its temporary name, and a refused rename leaves the copy to remove (below).
    await wall.apply({ workspaceRoot: root, mutations, ...(held ? {} : { cleanup: [temporary] }) });
    return 'restored';
  } catch (error) {
    await wall.apply({ workspaceRoot: root, mutations: [], cleanup: [temporary] }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ECHANGED' || code === 'EEXIST' || code === 'ENOTEMPTY' || (held && code === 'ENOENT'))
      return conflict(inspectPath(root, entry.path).found);
    if (REFUSED_BY_WALL.has(code)) return conflict({ state: 'other' });
    throw error;
  }
}

/**
 * Settles a group of staged writes: their copies synced together, each renamed over its path if
 * the path is still what it was when the copy was written (else a conflict, the copy removed),
 * then the folders that gained names synced while the replaced files are freed.
 */
async function settleStaged(
  wall: WorkspaceWall,
  writes: readonly StagedWrite[],
): Promise<{ write: StagedWrite; outcome: EntryOutcome }[]> {
  await syncTemporaries(writes);
  const settled: { write: StagedWrite; outcome: EntryOutcome }[] = [];
  const replaced = holdReplaced(writes);
  let releasing = false;
  try {
    for (const write of writes)
      settled.push({ write, outcome: write.inPlace === true ? 'restored' : await renameStaged(wall, write) });
    // The folders' syncs are queued on the thread pool before the replaced files are freed: the
    // pool runs its jobs in order, four at a time, and freeing a file can wait for the disk (a
    // discard), so queued behind a hundred frees the few syncs the journal waits for started last.
    const foldersSynced = syncFoldersOf(
      settled
        .filter(({ write, outcome }) => outcome === 'restored' && write.inPlace !== true)
        .map(({ write }) => write.absolutePath),
    );
    // Not awaited: the renamed-over files have no name left, nothing waits for their space, and
    // the release never fails (see releaseReplaced).
    void releaseReplaced(replaced);
    releasing = true;
    await foldersSynced;
  } finally {
    if (!releasing) await releaseReplaced(replaced);
  }
  return settled;
}

/**
 * Applies a journal file by file. Each file is replaced by rename (wholly old or wholly new) or
 * unlinked, and only while it still holds what the agent left; a file that already holds its
 * target counts as done, so applying a journal again after a crash finishes it safely. Restored
 * files are written, synced and renamed in groups (staged-writes.ts); the journal says `done`
 * only once every rename is durable.
 */
export async function applyJournal(
  database: JournalDatabase,
  wall: WorkspaceWall,
  now: () => number,
  journal: RestoreJournalRow,
  resumed: boolean,
  options: UndoOptions = {},
  started?: StartedJournal,
): Promise<UndoResult> {
  const { db } = database;
  try {
    const written = started?.entries;
    const entries =
      written ??
      (await db
        .selectFrom('checkpoint_restore_entry')
        .selectAll()
        .where('journal_id', '=', journal.journal_id)
        .orderBy('ordinal', 'asc')
        .execute());
    if (written === undefined) await assertTrustedEntries(db, journal, entries, now());
    let bodies = new Map<string, StoredBlob>();
    let keptWhole = new Set<string>();
    const outcomes: EntryOutcome[] = [];
    const staged = new StagedWrites();
    const settle = async () => {
      for (const { write, outcome } of await settleStaged(wall, staged.take())) {
        outcomes[write.index] = outcome;
        await options.onProgress?.({ path: write.entry.path, index: write.index, total: entries.length });
      }
    };
    for (const [index, entry] of entries.entries()) {
      if (index % BLOBS_PER_FETCH === 0) {
        // The bodies of the next few files in one select (bounded memory: a body over 1 MiB is
        // only named here, and read piece by piece as its file is written).
        const upcoming = entries.slice(index, index + BLOBS_PER_FETCH);
        bodies = await findBlobs(
          db,
          upcoming.flatMap((next) =>
            (next.target_state === 'file' || next.target_state === 'symlink') && next.target_sha256 !== null
              ? [next.target_sha256]
              : [],
          ),
        );
        keptWhole = await bodiesKeptWhole(
          db,
          upcoming.flatMap((next) =>
            next.expected_state === 'file' && next.target_state === 'file' && next.expected_sha256 !== null
              ? [next.expected_sha256]
              : [],
          ),
        );
      }
      if (staged.mustFlushBefore(entry.path)) await settle();
      const seen = started?.seen[index];
      const outcome = await applyEntry(
        db,
        wall,
        bodies,
        journal.journal_id,
        entry,
        index,
        staged,
        resumed,
        seen,
        keptWhole,
      );
      if (outcome === 'staged') continue;
      outcomes[index] = outcome;
      await options.onProgress?.({ path: entry.path, index, total: entries.length });
    }
    await settle();
    const restored: string[] = [];
    const deleted: string[] = [];
    const alreadyRestored: string[] = [];
    const lateConflicts: UndoConflict[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      const { path } = entries[index]!;
      if (outcome === 'restored') restored.push(path);
      else if (outcome === 'deleted') deleted.push(path);
      else if (outcome === 'already') alreadyRestored.push(path);
      else lateConflicts.push(outcome);
    }
    await writeJournalDone(database, journal.journal_id, now());
    return {
      sessionId: journal.session_id,
      turnId: journal.turn_id,
      undoneTurnIds: JSON.parse(journal.undone_turn_ids) as string[],
      restored,
      deleted,
      alreadyRestored,
      lateConflicts,
      resumed,
      notUndoable: [],
    };
  } finally {
    activeJournals.delete(journal.journal_id);
  }
}
