import { sql, type Kysely } from 'kysely';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables, RestoreEntryRow, RestoreJournalRow } from './checkpoint-schema.js';
import { sqliteStatements, type SqliteHandle } from './sqlite-statements.js';
import { writeTransaction } from './write-transaction.js';

/** Where a journal is written: the host's database, and its SQLite connection when the host gave it. */
export interface JournalDatabase {
  readonly db: Kysely<CheckpointTables>;
  readonly sqlite?: SqliteHandle | undefined;
}

/** The turns to mark undone: from the restore point at `sequence` on, these and no other. */
export interface TurnsToMark {
  readonly sessionId: string;
  readonly sequence: number;
  readonly turnIds: readonly string[];
}

// Marks exactly the planned turns, and only if they are all still complete and not undone, no
// other turn from the point on is live (a new turn, or one another undo left) and no undo of the
// session is being applied: one statement instead of reading all that first. The turn ids arrive
// as one JSON array, so the statement's text is the same for any number of turns.
const MARK_TURNS = `update checkpoint_restore_point set undone_at = ?
  where session_id = ? and turn_id in (select value from json_each(?)) and undone_at is null and completed_at is not null
    and not exists (select 1 from checkpoint_restore_point other where other.session_id = ?
      and other.sequence >= ? and other.undone_at is null and other.turn_id not in (select value from json_each(?)))
    and not exists (select 1 from checkpoint_restore_journal where session_id = ? and state = 'applying')`;
const INSERT_JOURNAL = `insert into checkpoint_restore_journal
  (journal_id, session_id, turn_id, state, undone_turn_ids, owner_host, owner_pid, created_at, finished_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const INSERT_ENTRY = `insert into checkpoint_restore_entry
  (journal_id, ordinal, workspace_root, path, expected_state, expected_sha256, target_state, target_sha256, target_mode)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const FINISH_JOURNAL = `update checkpoint_restore_journal set state = 'done', finished_at = ? where journal_id = ?`;

const journalParameters = (journal: RestoreJournalRow) => [
  journal.journal_id,
  journal.session_id,
  journal.turn_id,
  journal.state,
  journal.undone_turn_ids,
  journal.owner_host,
  journal.owner_pid,
  journal.created_at,
  journal.finished_at,
];
const entryParameters = (entry: RestoreEntryRow) => [
  entry.journal_id,
  entry.ordinal,
  entry.workspace_root,
  entry.path,
  entry.expected_state,
  entry.expected_sha256,
  entry.target_state,
  entry.target_sha256,
  entry.target_mode,
];

function sessionChanged(sessionId: string): CheckpointError {
  return new CheckpointError(
    'checkpoint_undo_in_progress',
    `Session ${sessionId} changed while this undo was being checked (another undo or a new turn); retry.`,
    { retryable: true },
  );
}

/**
 * Marks the turns undone and writes the journal with its entries, in one transaction that fails
 * with `checkpoint_undo_in_progress` (writing nothing) when the marking finds the session changed.
 * On the host's SQLite connection the statements are prepared once and run in one synchronous
 * `BEGIN IMMEDIATE … COMMIT` (a 100-file journal took several milliseconds to build as query-builder
 * SQL); otherwise, or while the host holds a transaction open on it, through the query builder.
 */
export async function writeJournalStart(
  { db, sqlite }: JournalDatabase,
  marking: TurnsToMark,
  journal: RestoreJournalRow,
  entries: readonly RestoreEntryRow[],
): Promise<void> {
  const { sessionId, sequence, turnIds } = marking;
  if (sqlite !== undefined && !sqlite.inTransaction) {
    const { run, immediate } = sqliteStatements(sqlite);
    const ids = JSON.stringify(turnIds);
    await immediate(() => {
      const marked = run(MARK_TURNS, journal.created_at, sessionId, ids, sessionId, sequence, ids, sessionId);
      if (marked !== turnIds.length) throw sessionChanged(sessionId);
      run(INSERT_JOURNAL, ...journalParameters(journal));
      for (const entry of entries) run(INSERT_ENTRY, ...entryParameters(entry));
    });
    return;
  }
  const ids = sql.join([...turnIds]);
  await writeTransaction(db, async (transaction) => {
    const marked = await sql`update checkpoint_restore_point set undone_at = ${journal.created_at}
      where session_id = ${sessionId} and turn_id in (${ids}) and undone_at is null and completed_at is not null
        and not exists (select 1 from checkpoint_restore_point other where other.session_id = ${sessionId}
          and other.sequence >= ${sequence} and other.undone_at is null and other.turn_id not in (${ids}))
        and not exists (select 1 from checkpoint_restore_journal where session_id = ${sessionId} and state = 'applying')`.execute(
      transaction,
    );
    if (Number(marked.numAffectedRows ?? 0) !== turnIds.length) throw sessionChanged(sessionId);
    await sql`insert into checkpoint_restore_journal (journal_id, session_id, turn_id, state, undone_turn_ids, owner_host, owner_pid, created_at, finished_at)
      values (${sql.join(journalParameters(journal))})`.execute(transaction);
    for (let start = 0; start < entries.length; start += 100) {
      const values = entries.slice(start, start + 100).map((entry) => sql`(${sql.join(entryParameters(entry))})`);
      await sql`insert into checkpoint_restore_entry (journal_id, ordinal, workspace_root, path, expected_state, expected_sha256, target_state, target_sha256, target_mode)
        values ${sql.join(values)}`.execute(transaction);
    }
  });
}

/** Marks a journal wholly applied (one statement, committed on its own). */
export async function writeJournalDone({ db, sqlite }: JournalDatabase, journalId: string, at: number): Promise<void> {
  if (sqlite !== undefined && !sqlite.inTransaction) {
    sqliteStatements(sqlite).run(FINISH_JOURNAL, at, journalId);
    return;
  }
  await sql`update checkpoint_restore_journal set state = 'done', finished_at = ${at} where journal_id = ${journalId}`.execute(
    db,
  );
}
