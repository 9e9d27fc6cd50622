import { sql, type Kysely } from 'kysely';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables, FileChangeRow, RestorePointRow } from './checkpoint-schema.js';
import { inspectPath, sameState, type FoundState, type UndoConflict } from './file-state.js';

/** What one path must be turned back into by an undo batch. */
export interface PlannedRestore {
  readonly workspaceRoot: string;
  readonly path: string;
  /** What the last undone turn left there; anything else on disk is a conflict. */
  readonly expected: FoundState;
  /** What the first undone turn found there. */
  readonly target:
    { readonly state: 'absent' } | { readonly state: 'file'; readonly sha256: string; readonly mode: number };
}

/** An undo batch: the turns it reverts (newest first), the files, and what stands in the way. */
export interface UndoPlan {
  readonly point: RestorePointRow;
  readonly turnIds: readonly string[];
  readonly restores: readonly PlannedRestore[];
  readonly conflicts: readonly UndoConflict[];
}

/** The state a change row says the turn left (`unknown` when no tool reported it). */
export function afterState(row: FileChangeRow): FoundState {
  if (row.after_state === 'absent') return { state: 'absent' };
  if (row.after_state === 'file' && row.after_sha256 !== null) return { state: 'file', sha256: row.after_sha256 };
  return { state: 'unknown' };
}

/** The state a change row says the turn found. */
export function beforeState(row: FileChangeRow): FoundState {
  return row.before_state === 'file' ? { state: 'file', sha256: row.before_sha256 ?? '' } : { state: 'absent' };
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
  for (const chain of byPath.values()) {
    const first = chain[0]!;
    const last = chain[chain.length - 1]!;
    const workspaceRoot = roots.get(first.turn_id)!;
    for (let index = 1; index < chain.length; index += 1) {
      const expected = afterState(chain[index - 1]!);
      const found = beforeState(chain[index]!);
      if (!sameState(expected, found))
        conflicts.push({ path: first.path, expected, found, reason: 'changed_between_turns' });
    }
    const expected = afterState(last);
    const { found } = inspectPath(workspaceRoot, first.path);
    if (!sameState(expected, found)) conflicts.push({ path: first.path, expected, found, reason: 'changed_on_disk' });
    const target =
      first.before_state === 'file'
        ? { state: 'file' as const, sha256: first.before_sha256 ?? '', mode: Number(first.before_mode ?? 0o644) }
        : { state: 'absent' as const };
    restores.push({ workspaceRoot, path: first.path, expected, target });
  }
  // Deletions first (deepest first), so a folder a turn created can hold a restored file again.
  restores.sort((left, right) => {
    if (left.target.state !== right.target.state) return left.target.state === 'absent' ? -1 : 1;
    return left.target.state === 'absent'
      ? right.path.split('/').length - left.path.split('/').length || left.path.localeCompare(right.path)
      : left.path.localeCompare(right.path);
  });
  return { point, turnIds: points.map((candidate) => candidate.turn_id).reverse(), restores, conflicts };
}
