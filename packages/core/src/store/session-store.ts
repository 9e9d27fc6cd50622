import { randomUUID } from 'node:crypto';
import type { ModelMessage } from '@clawsmith/providers';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { sql, type Kysely } from 'kysely';
import type {
  NewSessionEvent,
  PendingApproval,
  SessionEvent,
  SessionRecord,
  TodoItem,
  TurnRecord,
  UndoneTurnRecord,
} from './session-records.js';

/** Receives every event right after it is persisted. */
export type SessionEventListener = (event: SessionEvent) => void;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Database = Kysely<any>;

const now = (): string => new Date().toISOString();

/** Rows per INSERT: a statement may bind at most 32,766 variables, and a row binds up to 7. */
const INSERT_CHUNK = 500;

function toSession(row: Record<string, unknown>): SessionRecord {
  return {
    id: String(row.id),
    workspaceRoot: String(row.workspace_root),
    title: (row.title as string | null) ?? null,
    parentSessionId: (row.parent_session_id as string | null) ?? null,
    forkedAtTurnId: (row.forked_at_turn_id as string | null) ?? null,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

function toEvent(row: Record<string, unknown>): SessionEvent {
  return {
    ...(JSON.parse(String(row.payload_json)) as Record<string, unknown>),
    type: row.type as SessionEvent['type'],
    sessionId: String(row.session_id),
    turnId: (row.turn_id as string | null) ?? null,
    sequence: Number(row.sequence),
    createdAt: String(row.created_at),
  };
}

function toTurn(row: Record<string, unknown>): TurnRecord {
  return {
    sessionId: String(row.session_id),
    turnId: String(row.turn_id),
    ordinal: Number(row.ordinal),
    prompt: String(row.prompt),
    status: row.status as TurnRecord['status'],
    activation: JSON.parse(String(row.activation_json)) as string[],
    ownerPid: Number(row.owner_pid),
    startedAt: String(row.started_at),
    completedAt: (row.completed_at as string | null) ?? null,
  };
}

/**
 * Sessions, messages, events, turns, approvals, todos and the deferred activation set, in the
 * embedded database. Event sequence numbers are assigned inside the insert itself, so two
 * processes appending to one session cannot take the same number.
 */
export class SessionStore {
  readonly #db: Database;
  readonly #listeners = new Set<SessionEventListener>();

  constructor(db: Database) {
    this.#db = db;
  }

  /** Follows every event this process persists; returns the unsubscribe function. */
  subscribe(listener: SessionEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async createSession(input: {
    workspaceRoot: string;
    title?: string | null;
    parentSessionId?: string;
    forkedAtTurnId?: string | null;
    id?: string;
  }): Promise<SessionRecord> {
    const timestamp = now();
    const row = {
      id: input.id ?? randomUUID(),
      workspace_root: input.workspaceRoot,
      title: input.title ?? null,
      parent_session_id: input.parentSessionId ?? null,
      forked_at_turn_id: input.forkedAtTurnId ?? null,
      activation_json: '[]',
      created_at: timestamp,
      updated_at: timestamp,
    };
    await this.#db.insertInto('session').values(row).execute();
    return toSession(row);
  }

  async getSession(sessionId: string): Promise<SessionRecord | undefined> {
    const row = await this.#db.selectFrom('session').selectAll().where('id', '=', sessionId).executeTakeFirst();
    return row ? toSession(row) : undefined;
  }

  /** The session, or a `session_not_found` error that says how to list sessions. */
  async requireSession(sessionId: string): Promise<SessionRecord> {
    const session = await this.getSession(sessionId);
    if (!session)
      throw new ClawsmithError(
        'session_not_found',
        `No session ${JSON.stringify(sessionId)}; list sessions with 'clawsmith sessions'.`,
      );
    return session;
  }

  /** Sessions by last activity, newest first; `limit` and `offset` page through them. */
  async listSessions(options: { limit?: number; offset?: number } = {}): Promise<SessionRecord[]> {
    let query = this.#db.selectFrom('session').selectAll().orderBy('updated_at', 'desc').orderBy('id');
    if (options.limit !== undefined) query = query.limit(options.limit).offset(options.offset ?? 0);
    const rows = await query.execute();
    return rows.map(toSession);
  }

  /** Replaces a session's title (unlike `setTitle`, which only fills a missing one). */
  async renameSession(sessionId: string, title: string): Promise<void> {
    await this.#db.updateTable('session').set({ title, updated_at: now() }).where('id', '=', sessionId).execute();
  }

  async setTitle(sessionId: string, title: string): Promise<void> {
    await this.#db
      .updateTable('session')
      .set({ title, updated_at: now() })
      .where('id', '=', sessionId)
      .where('title', 'is', null)
      .execute();
  }

  async appendMessages(sessionId: string, turnId: string | null, messages: readonly ModelMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.#db.transaction().execute(async (transaction) => {
      const last = await transaction
        .selectFrom('session_message')
        .select((builder) => builder.fn.max('position').as('position'))
        .where('session_id', '=', sessionId)
        .executeTakeFirst();
      let position = Number(last?.position ?? 0);
      const timestamp = now();
      const rows = messages.map((message) => ({
        session_id: sessionId,
        position: (position += 1),
        turn_id: turnId,
        role: message.role,
        message_json: JSON.stringify(message),
        created_at: timestamp,
      }));
      for (let index = 0; index < rows.length; index += INSERT_CHUNK)
        await transaction
          .insertInto('session_message')
          .values(rows.slice(index, index + INSERT_CHUNK))
          .execute();
      await transaction.updateTable('session').set({ updated_at: timestamp }).where('id', '=', sessionId).execute();
    });
  }

  async listMessages(sessionId: string): Promise<ModelMessage[]> {
    const rows = await this.#db
      .selectFrom('session_message')
      .select('message_json')
      .where('session_id', '=', sessionId)
      .orderBy('position')
      .execute();
    return rows.map((row) => JSON.parse(String(row.message_json)) as ModelMessage);
  }

  async countMessages(sessionId: string): Promise<number> {
    const row = await this.#db
      .selectFrom('session_message')
      .select((builder) => builder.fn.countAll().as('count'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /**
   * Appends events, numbering them after the session's last event. One INSERT … SELECT takes
   * the numbers from MAX(sequence) inside the statement itself, so the numbering is atomic (even
   * with another process appending to the same session) without an explicit transaction, and a
   * batch of events costs one statement. A batch larger than {@link INSERT_CHUNK} rows is written in
   * chunks inside one transaction (SQLite bounds the variables of one statement).
   */
  async appendEvents(sessionId: string, events: readonly NewSessionEvent[]): Promise<SessionEvent[]> {
    if (events.length === 0) return [];
    const timestamp = now();
    const rows = events.map(({ type, turnId, ...payload }, index) => ({
      offset: index + 1,
      type,
      turnId: turnId ?? null,
      payloadJson: JSON.stringify(payload),
    }));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const insertChunk = async (executor: Kysely<any>, chunk: typeof rows): Promise<number> => {
      const values = sql.join(chunk.map((row) => sql`(${row.offset}, ${row.type}, ${row.turnId}, ${row.payloadJson})`));
      const inserted = await sql<{ sequence: number }>`
        insert into session_event (session_id, sequence, type, turn_id, payload_json, created_at)
        select ${sessionId}, base.last_sequence + batch.column1 - ${chunk[0]!.offset - 1}, batch.column2, batch.column3, batch.column4, ${timestamp}
        from (select coalesce(max(sequence), 0) as last_sequence from session_event where session_id = ${sessionId}) as base
        cross join (values ${values}) as batch
        order by batch.column1
        returning sequence`.execute(executor);
      return Math.min(...inserted.rows.map((row) => Number(row.sequence))) - (chunk[0]!.offset - 1);
    };
    const first =
      rows.length <= INSERT_CHUNK
        ? await insertChunk(this.#db, rows)
        : await this.#db.transaction().execute(async (transaction) => {
            let start = 0;
            for (let index = 0; index < rows.length; index += INSERT_CHUNK) {
              const chunkFirst = await insertChunk(transaction, rows.slice(index, index + INSERT_CHUNK));
              if (index === 0) start = chunkFirst;
            }
            return start;
          });
    const stored = rows.map((row) =>
      toEvent({
        session_id: sessionId,
        sequence: first + row.offset - 1,
        type: row.type,
        turn_id: row.turnId,
        payload_json: row.payloadJson,
        created_at: timestamp,
      }),
    );
    for (const event of stored) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch {
          // A failing subscriber must not break the turn that produced the event.
        }
      }
    }
    return stored;
  }

  async appendEvent(sessionId: string, event: NewSessionEvent): Promise<SessionEvent> {
    const [stored] = await this.appendEvents(sessionId, [event]);
    return stored!;
  }

  async listEvents(
    sessionId: string,
    options: { afterSequence?: number; turnId?: string; limit?: number } = {},
  ): Promise<SessionEvent[]> {
    let query = this.#db
      .selectFrom('session_event')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('sequence', '>', options.afterSequence ?? 0);
    if (options.turnId) query = query.where('turn_id', '=', options.turnId);
    query = query.orderBy('sequence');
    if (options.limit !== undefined) query = query.limit(options.limit);
    const rows = await query.execute();
    return rows.map(toEvent);
  }

  async lastSequence(sessionId: string): Promise<number> {
    const row = await this.#db
      .selectFrom('session_event')
      .select((builder) => builder.fn.max('sequence').as('sequence'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return Number(row?.sequence ?? 0);
  }

  async startTurn(turn: Omit<TurnRecord, 'ordinal' | 'completedAt' | 'status' | 'ownerPid'>): Promise<TurnRecord> {
    return this.#db.transaction().execute(async (transaction) => {
      const last = await transaction
        .selectFrom('session_turn')
        .select((builder) => builder.fn.max('ordinal').as('ordinal'))
        .where('session_id', '=', turn.sessionId)
        .executeTakeFirst();
      const row = {
        session_id: turn.sessionId,
        turn_id: turn.turnId,
        ordinal: Number(last?.ordinal ?? 0) + 1,
        prompt: turn.prompt,
        status: 'running',
        activation_json: JSON.stringify(turn.activation),
        owner_pid: process.pid,
        started_at: turn.startedAt,
        completed_at: null,
      };
      await transaction.insertInto('session_turn').values(row).execute();
      return toTurn(row);
    });
  }

  async completeTurn(sessionId: string, turnId: string, status: TurnRecord['status']): Promise<void> {
    await this.#db
      .updateTable('session_turn')
      .set({ status, completed_at: now() })
      .where('session_id', '=', sessionId)
      .where('turn_id', '=', turnId)
      .execute();
  }

  async listTurns(sessionId: string): Promise<TurnRecord[]> {
    const rows = await this.#db
      .selectFrom('session_turn')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('ordinal')
      .execute();
    return rows.map(toTurn);
  }

  /** Turns whose conversation was undone (cut by a session restore), oldest undo first. */
  async listUndoneTurns(sessionId: string): Promise<UndoneTurnRecord[]> {
    const rows = await this.#db
      .selectFrom('session_undone_turn')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('undone_at')
      .orderBy('ordinal')
      .execute();
    return rows.map((row) => ({ ...toTurn(row), undoneAt: String(row.undone_at) }));
  }

  /** A turn whose conversation was undone, if `turnId` is one. */
  async getUndoneTurn(sessionId: string, turnId: string): Promise<UndoneTurnRecord | undefined> {
    const row = await this.#db
      .selectFrom('session_undone_turn')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('turn_id', '=', turnId)
      .executeTakeFirst();
    return row ? { ...toTurn(row), undoneAt: String(row.undone_at) } : undefined;
  }

  /** The session's latest turn (highest ordinal), if it has any. */
  async getLastTurn(sessionId: string): Promise<TurnRecord | undefined> {
    const row = await this.#db
      .selectFrom('session_turn')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('ordinal', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toTurn(row) : undefined;
  }

  async getTurn(sessionId: string, turnId: string): Promise<TurnRecord | undefined> {
    const row = await this.#db
      .selectFrom('session_turn')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('turn_id', '=', turnId)
      .executeTakeFirst();
    return row ? toTurn(row) : undefined;
  }

  async getTodos(sessionId: string): Promise<TodoItem[]> {
    const rows = await this.#db
      .selectFrom('session_todos')
      .select(['content', 'status'])
      .where('session_id', '=', sessionId)
      .orderBy('position')
      .execute();
    return rows.map((row) => ({ content: String(row.content), status: row.status as TodoItem['status'] }));
  }

  async setTodos(sessionId: string, todos: readonly TodoItem[]): Promise<void> {
    await this.#db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom('session_todos').where('session_id', '=', sessionId).execute();
      if (todos.length === 0) return;
      const timestamp = now();
      await transaction
        .insertInto('session_todos')
        .values(
          todos.map((todo, index) => ({
            session_id: sessionId,
            position: index + 1,
            content: todo.content,
            status: todo.status,
            updated_at: timestamp,
          })),
        )
        .execute();
    });
  }

  async getActivation(sessionId: string): Promise<string[]> {
    const row = await this.#db
      .selectFrom('session')
      .select('activation_json')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    return row ? (JSON.parse(String(row.activation_json)) as string[]) : [];
  }

  async setActivation(sessionId: string, activeTools: readonly string[]): Promise<void> {
    await this.#db
      .updateTable('session')
      .set({ activation_json: JSON.stringify([...activeTools].sort()) })
      .where('id', '=', sessionId)
      .execute();
  }

  async addApproval(approval: Omit<PendingApproval, 'id' | 'createdAt'>): Promise<PendingApproval> {
    const stored: PendingApproval = { ...approval, id: randomUUID(), createdAt: now() };
    await this.#db
      .insertInto('session_approval')
      .values({
        id: stored.id,
        session_id: stored.sessionId,
        turn_id: stored.turnId,
        tool_call_id: stored.toolCallId,
        tool_name: stored.toolName,
        summary: stored.summary,
        risk: stored.risk,
        reason: stored.reason,
        created_at: stored.createdAt,
      })
      .execute();
    return stored;
  }

  /** Deletes the session's row and everything stored under it here (events, messages, turns, approvals, todos). */
  async deleteSession(sessionId: string): Promise<void> {
    await this.#db.transaction().execute(async (transaction) => {
      for (const table of [
        'session_event',
        'session_message',
        'session_turn',
        'session_undone_turn',
        'session_approval',
        'session_todos',
      ])
        await transaction.deleteFrom(table).where('session_id', '=', sessionId).execute();
      // Its own delegation record and those of the children it delegated (the children stay sessions).
      await transaction
        .deleteFrom('session_delegation')
        .where((where) =>
          where.or([where('child_session_id', '=', sessionId), where('parent_session_id', '=', sessionId)]),
        )
        .execute();
      await transaction.deleteFrom('session').where('id', '=', sessionId).execute();
    });
  }

  async removeApproval(approvalId: string): Promise<void> {
    await this.#db.deleteFrom('session_approval').where('id', '=', approvalId).execute();
  }

  async listApprovals(sessionId: string): Promise<PendingApproval[]> {
    const rows = await this.#db
      .selectFrom('session_approval')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .execute();
    return rows.map((row) => ({
      id: String(row.id),
      sessionId: String(row.session_id),
      turnId: String(row.turn_id),
      toolCallId: String(row.tool_call_id),
      toolName: String(row.tool_name),
      summary: String(row.summary),
      risk: String(row.risk),
      reason: String(row.reason),
      createdAt: String(row.created_at),
    }));
  }

  /**
   * Cuts the session back to a restore point: messages after `messageCount` and events after
   * `eventSequence` are deleted, turns started after it are forgotten, pending approvals cleared,
   * the todo list and the activation set replaced. One transaction, which changes nothing and
   * throws `turn_already_undone` when `turnId` is no longer a turn of the session by the time it
   * holds the write lock (another process cut the same conversation first).
   */
  async truncate(
    sessionId: string,
    point: {
      turnId: string;
      messageCount: number;
      eventSequence: number;
      turnOrdinal: number;
      todos: readonly TodoItem[];
      activation: readonly string[];
    },
  ): Promise<void> {
    await this.#db.transaction().execute(async (transaction) => {
      await transaction
        .deleteFrom('session_message')
        .where('session_id', '=', sessionId)
        .where('position', '>', point.messageCount)
        .execute();
      await transaction
        .deleteFrom('session_event')
        .where('session_id', '=', sessionId)
        .where('sequence', '>', point.eventSequence)
        .execute();
      const undoneAt = now();
      const undone = await transaction
        .selectFrom('session_turn')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('ordinal', '>=', point.turnOrdinal)
        .execute();
      // Checked after the first write: the transaction holds the write lock by now, so a restore
      // of another process either committed before (and is seen here) or waits for this one.
      if (!undone.some((row) => row.turn_id === point.turnId))
        throw new ClawsmithError(
          'turn_already_undone',
          `The conversation of turn ${point.turnId} was just cut back by another restore; nothing more to cut. ` +
            `Reload the session to see where it stands.`,
        );
      for (const row of undone)
        await transaction
          .insertInto('session_undone_turn')
          .values({ ...row, undone_at: undoneAt })
          .onConflict((conflict) => conflict.columns(['session_id', 'turn_id']).doNothing())
          .execute();
      await transaction
        .deleteFrom('session_turn')
        .where('session_id', '=', sessionId)
        .where('ordinal', '>=', point.turnOrdinal)
        .execute();
      await transaction.deleteFrom('session_approval').where('session_id', '=', sessionId).execute();
      await transaction.deleteFrom('session_todos').where('session_id', '=', sessionId).execute();
      const timestamp = now();
      if (point.todos.length > 0) {
        await transaction
          .insertInto('session_todos')
          .values(
            point.todos.map((todo, index) => ({
              session_id: sessionId,
              position: index + 1,
              content: todo.content,
              status: todo.status,
              updated_at: timestamp,
            })),
          )
          .execute();
      }
      await transaction
        .updateTable('session')
        .set({ activation_json: JSON.stringify([...point.activation].sort()), updated_at: timestamp })
        .where('id', '=', sessionId)
        .execute();
    });
  }

  /** Copies a session's messages, events and turns up to a point into another session. */
  async copyHistory(
    fromSessionId: string,
    toSessionId: string,
    point: { messageCount: number; eventSequence: number; turnOrdinal: number },
  ): Promise<void> {
    await this.#db.transaction().execute(async (transaction) => {
      const messages = await transaction
        .selectFrom('session_message')
        .selectAll()
        .where('session_id', '=', fromSessionId)
        .where('position', '<=', point.messageCount)
        .execute();
      for (let index = 0; index < messages.length; index += INSERT_CHUNK)
        await transaction
          .insertInto('session_message')
          .values(messages.slice(index, index + INSERT_CHUNK).map((row) => ({ ...row, session_id: toSessionId })))
          .execute();
      const events = await transaction
        .selectFrom('session_event')
        .selectAll()
        .where('session_id', '=', fromSessionId)
        .where('sequence', '<=', point.eventSequence)
        .execute();
      for (let index = 0; index < events.length; index += INSERT_CHUNK) {
        await transaction
          .insertInto('session_event')
          .values(events.slice(index, index + INSERT_CHUNK).map((row) => ({ ...row, session_id: toSessionId })))
          .execute();
      }
      const turns = await transaction
        .selectFrom('session_turn')
        .selectAll()
        .where('session_id', '=', fromSessionId)
        .where('ordinal', '<=', point.turnOrdinal)
        .execute();
      if (turns.length > 0)
        await transaction
          .insertInto('session_turn')
          .values(turns.map((row) => ({ ...row, session_id: toSessionId })))
          .execute();
      const todos = await transaction
        .selectFrom('session_todos')
        .selectAll()
        .where('session_id', '=', fromSessionId)
        .execute();
      if (todos.length > 0)
        await transaction
          .insertInto('session_todos')
          .values(todos.map((row) => ({ ...row, session_id: toSessionId })))
          .execute();
    });
  }
}
