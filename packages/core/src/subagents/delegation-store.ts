import type { DatabaseHandle } from '@clawsmith/platform';
import type { CoreDatabase, SessionDelegationRow } from '../store/core-tables.js';
import { coreDatabase } from '../store/open-database.js';

/** How a child session was delegated. */
export type DelegationKind = 'task' | 'background' | 'worktree';

/** Where a child session stands: running, or how its one turn ended (`interrupted` after a crash). */
export type DelegationStatus =
  'running' | 'completed' | 'incomplete' | 'failed' | 'cancelled' | 'step_limit' | 'interrupted';

/** A child session and what delegated it. */
export interface DelegationRecord {
  /** The child's session. */
  readonly childSessionId: string;
  /** The session that delegated. */
  readonly parentSessionId: string;
  /** The parent's turn that delegated. */
  readonly parentTurnId: string;
  /** The tool call that delegated. */
  readonly parentToolCallId: string;
  /** How the child runs: a read-only task, in the background, or in a git worktree. */
  readonly kind: DelegationKind;
  /** Running, or how it ended. */
  readonly status: DelegationStatus;
  /** The task the child was given. */
  readonly prompt: string;
  /** The structured result the parent received (or will receive), once the child ended. */
  readonly result: unknown;
  /** When a background child's result was delivered to the parent (once). */
  readonly notifiedAt: string | null;
  /** The process that ran the child; recovery closes a running child whose process is gone. */
  readonly ownerPid: number;
  /** When it was delegated (ISO 8601). */
  readonly createdAt: string;
  /** When the child ended (ISO 8601), or `null` while it runs. */
  readonly completedAt: string | null;
}

function toRecord(row: SessionDelegationRow): DelegationRecord {
  return {
    childSessionId: row.child_session_id,
    parentSessionId: row.parent_session_id,
    parentTurnId: row.parent_turn_id,
    parentToolCallId: row.parent_tool_call_id,
    kind: row.kind,
    status: row.status,
    prompt: row.prompt,
    result: row.result_json === null ? null : JSON.parse(row.result_json),
    notifiedAt: row.notified_at,
    ownerPid: row.owner_pid,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

/** The `session_delegation` table: which session delegated each child, and how the child ended. */
export class DelegationStore {
  readonly #db: CoreDatabase;

  /** `db` is the home database, migrated by `migrateCore`. */
  constructor(db: DatabaseHandle) {
    this.#db = coreDatabase(db);
  }

  async create(
    input: Pick<
      DelegationRecord,
      'childSessionId' | 'parentSessionId' | 'parentTurnId' | 'parentToolCallId' | 'kind' | 'prompt'
    >,
  ): Promise<void> {
    await this.#db
      .insertInto('session_delegation')
      .values({
        child_session_id: input.childSessionId,
        parent_session_id: input.parentSessionId,
        parent_turn_id: input.parentTurnId,
        parent_tool_call_id: input.parentToolCallId,
        kind: input.kind,
        status: 'running',
        prompt: input.prompt,
        result_json: null,
        notified_at: null,
        owner_pid: process.pid,
        created_at: new Date().toISOString(),
        completed_at: null,
      })
      .execute();
  }

  /** Records how a child ended; a child already closed (by recovery) keeps its first status. */
  async complete(childSessionId: string, status: Exclude<DelegationStatus, 'running'>, result: unknown): Promise<void> {
    await this.#db
      .updateTable('session_delegation')
      .set({ status, result_json: JSON.stringify(result), completed_at: new Date().toISOString() })
      .where('child_session_id', '=', childSessionId)
      .where('status', '=', 'running')
      .execute();
  }

  /** Marks results delivered; returns the ids that were not delivered before (so each is delivered once). */
  async markNotified(childSessionIds: readonly string[]): Promise<string[]> {
    const delivered: string[] = [];
    for (const id of childSessionIds) {
      const updated = await this.#db
        .updateTable('session_delegation')
        .set({ notified_at: new Date().toISOString() })
        .where('child_session_id', '=', id)
        .where('notified_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) delivered.push(id);
    }
    return delivered;
  }

  async get(childSessionId: string): Promise<DelegationRecord | undefined> {
    const row = await this.#db
      .selectFrom('session_delegation')
      .selectAll()
      .where('child_session_id', '=', childSessionId)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** The children of one session, oldest first; or of every session. */
  async list(parentSessionId?: string): Promise<DelegationRecord[]> {
    let query = this.#db.selectFrom('session_delegation').selectAll();
    if (parentSessionId !== undefined) query = query.where('parent_session_id', '=', parentSessionId);
    const rows = await query.orderBy('created_at').orderBy('child_session_id').execute();
    return rows.map(toRecord);
  }
}
