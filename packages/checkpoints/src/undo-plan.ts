import { sql, type Kysely } from 'kysely';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables, FileChangeRow, RestorePointRow } from './checkpoint-schema.js';
import { afterState, beforeState } from './change-states.js';
import type { FileIdentity } from './file-identity.js';
import { inspectPath, sameState, type FoundState, type UndoConflict } from './file-state.js';

/** What an undo puts back at one path: nothing, a file, a symbolic link (its target is the body) or a folder. */
export type RestoreTarget =
  | { readonly state: 'absent' }
  | { readonly state: 'file'; readonly sha256: string; readonly mode: number }
  | { readonly state: 'symlink'; readonly sha256: string }
  | { readonly state: 'directory'; readonly mode: number };

/** What one path must be turned back into by an undo batch. */
export interface PlannedRestore {
  readonly workspaceRoot: string;
  readonly path: string;
  /** What the last undone turn left there; anything else on disk is a conflict. */
  readonly expected: FoundState;
  /** What the first undone turn found there. */
  readonly target: RestoreTarget;
  /**
   * The regular file the plan read at the path, and how to tell it is still that version: the
   * undo that follows at once need not read it again (a resumed journal always does).
   */
  readonly seen?: { readonly found: FoundState; readonly identity: FileIdentity };
}

/** An undo batch: the turns it reverts (newest first), the files, and what stands in the way. */
export interface UndoPlan {
  readonly point: RestorePointRow;
  readonly turnIds: readonly string[];
  readonly restores: readonly PlannedRestore[];
  readonly conflicts: readonly UndoConflict[];
  /** Paths whose earlier bytes were not kept: the undo leaves them as they are. */
  readonly notUndoable: readonly string[];
}

/** Loads one restore point or throws `checkpoint_not_found`. */
export async function requireRestorePoint(
  db: Kysely<CheckpointTables>,
  sessionId: string,
  turnId: string,
): Promise<RestorePointRow> {
  const point = await db
    .selectFrom('checkpoint_restore_point')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('turn_id', '=', turnId)
    .executeTakeFirst();
  if (point === undefined) {
    throw new CheckpointError(
      'checkpoint_not_found',
      `Session ${sessionId} has no restore point for turn ${turnId}; list them with listRestorePoints(sessionId).`,
    );
  }
  return point;
}

/** The restore point an undo starts at, the later points not undone yet, and whether an undo batch of the session is unfinished. */
export interface UndoPoints {
  /** The point asked for; undefined when the session has no such turn. */
  readonly point: RestorePointRow | undefined;
  /** Later points of the session not undone yet, by sequence. */
  readonly later: readonly RestorePointRow[];
  /** Undo batches of the session still being applied (by a live process, or left by a dead one). */
  readonly applyingJournals: number;
}

/** Loads what {@link planUndo} needs about restore points and journals with one statement. */
export async function loadUndoPoints(
  db: Kysely<CheckpointTables>,
  sessionId: string,
  turnId: string,
): Promise<UndoPoints> {
  const { rows } = await sql<RestorePointRow & { applying_journals: number | string }>`select candidate.*,
      (select count(*) from checkpoint_restore_journal where session_id = ${sessionId} and state = 'applying') as applying_journals
    from checkpoint_restore_point candidate
    where candidate.session_id = ${sessionId} and (candidate.turn_id = ${turnId} or candidate.undone_at is null)
      and candidate.sequence >= (select sequence from checkpoint_restore_point where session_id = ${sessionId} and turn_id = ${turnId})
    order by candidate.sequence`.execute(db);
  const strip = ({
    applying_journals: _applying,
    ...row
  }: RestorePointRow & { applying_journals: number | string }): RestorePointRow => row;
  const point = rows.find((row) => row.turn_id === turnId);
  if (point === undefined) {
    // Not found; only the journal count is still wanted (a dead undo is finished before reporting it).
    const journals = await db
      .selectFrom('checkpoint_restore_journal')
      .select('journal_id')
      .where('session_id', '=', sessionId)
      .where('state', '=', 'applying')
      .execute();
    return { point: undefined, later: [], applyingJournals: journals.length };
  }
  return {
    point: strip(point),
    later: rows.filter((row) => row !== point).map(strip),
    applyingJournals: Number(point.applying_journals),
  };
}

/**
 * Plans undoing `turnId` and every later turn of the session that is not undone yet, as if
 * each were reverted newest first: per path the target is the first turn's pre-image and the
 * expectation the last turn's post-image, and a path changed between two of those turns is a
 * conflict too. Reads each affected file once; writes nothing. `loaded` saves the first query
 * when the caller has just run {@link loadUndoPoints}.
 */
export async function planUndo(
  db: Kysely<CheckpointTables>,
  sessionId: string,
  turnId: string,
  loaded?: UndoPoints,
): Promise<UndoPlan> {
  const { point, later } = loaded ?? (await loadUndoPoints(db, sessionId, turnId));
  if (point === undefined) {
    throw new CheckpointError(
      'checkpoint_not_found',
      `Session ${sessionId} has no restore point for turn ${turnId}; list them with listRestorePoints(sessionId).`,
    );
  }
  if (point.undone_at !== null) {
    throw new CheckpointError(
      'checkpoint_already_undone',
      `Turn ${turnId} of session ${sessionId} is already undone; pick a restore point that is not undone (listRestorePoints shows which).`,
    );
  }
  const points = [point, ...later];
  const running = points.find((candidate) => candidate.completed_at === null);
  if (running !== undefined) {
    throw new CheckpointError(
      'checkpoint_turn_in_progress',
      `Turn ${running.turn_id} of session ${sessionId} is still running; undo after it completes.`,
      {
        retryable: true,
      },
    );
  }
  const order = new Map(points.map((candidate, index) => [candidate.turn_id, index]));
  const roots = new Map(points.map((candidate) => [candidate.turn_id, candidate.workspace_root]));
  const { rows } = await sql<FileChangeRow>`select * from checkpoint_file_change
    where session_id = ${sessionId} and turn_id in (${sql.join(points.map((candidate) => candidate.turn_id))})`.execute(
    db,
  );
  rows.sort(
    (left, right) =>
      order.get(left.turn_id)! - order.get(right.turn_id)! || Number(left.ordinal) - Number(right.ordinal),
  );
  const byPath = new Map<string, FileChangeRow[]>();
  for (const row of rows) {
    const key = `${roots.get(row.turn_id)}\0${row.path}`;
    byPath.set(key, [...(byPath.get(key) ?? []), row]);
  }
  const restores: PlannedRestore[] = [];
  const conflicts: UndoConflict[] = [];
  // Folders (and workspaces) found real in this precheck: each is lstat'ed once, not once per file.
  const walked = new Set<string>();
  const belowLinks: string[] = [];
  const notUndoable: string[] = [];
  for (const chain of byPath.values()) {
    const first = chain[0]!;
    const last = chain[chain.length - 1]!;
    const workspaceRoot = roots.get(first.turn_id)!;
    if (first.before_state === 'unkept') {
      notUndoable.push(first.path);
      continue;
    }
    for (let index = 1; index < chain.length; index += 1) {
      const expected = afterState(chain[index - 1]!);
      const found = beforeState(chain[index]!);
      if (!sameState(expected, found))
        conflicts.push({ path: first.path, expected, found, reason: 'changed_between_turns' });
    }
    const expected = afterState(last);
    const { found, identity } = inspectPath(workspaceRoot, first.path, walked);
    if (!sameState(expected, found)) {
      if (expected.state === 'absent' && found.state === 'symlink' && 'onTheWay' in found) belowLinks.push(first.path);
      else conflicts.push({ path: first.path, expected, found, reason: 'changed_on_disk' });
    }
    restores.push({
      workspaceRoot,
      path: first.path,
      expected,
      target: beforeState(first) as RestoreTarget,
      ...(identity === undefined ? {} : { seen: { found, identity } }),
    });
  }
  // A path the turns deleted, below a folder they replaced by a link: the link is on its way, and
  // is no conflict when this undo itself puts that link back into a folder as the turns left it.
  const linksUndone = new Set(
    restores
      .filter((restore) => restore.expected.state === 'symlink' && restore.target.state === 'directory')
      .map((restore) => restore.path),
  );
  for (const path of belowLinks) {
    const segments = path.split('/');
    const undone = segments.slice(0, -1).some((_, index) => linksUndone.has(segments.slice(0, index + 1).join('/')));
    const restore = restores.find((candidate) => candidate.path === path)!;
    if (!undone)
      conflicts.push({
        path,
        expected: restore.expected,
        found: inspectPath(restore.workspaceRoot, path, walked).found,
        reason: 'changed_on_disk',
      });
  }
  // Deletions first, deepest first (a folder empties before it goes, and a folder a turn created
  // can hold a restored file again); then restores, shallowest first (a folder before its files).
  const depth = (path: string) => path.split('/').length;
  restores.sort((left, right) => {
    const leftAbsent = left.target.state === 'absent';
    if (leftAbsent !== (right.target.state === 'absent')) return leftAbsent ? -1 : 1;
    const byDepth = leftAbsent ? depth(right.path) - depth(left.path) : depth(left.path) - depth(right.path);
    return byDepth || (left.path < right.path ? -1 : left.path > right.path ? 1 : 0);
  });
  return {
    point,
    turnIds: points.map((candidate) => candidate.turn_id).reverse(),
    restores,
    conflicts,
    notUndoable: notUndoable.sort(),
  };
}
