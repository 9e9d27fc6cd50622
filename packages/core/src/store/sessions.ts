import { randomUUID } from 'node:crypto';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import type { CoreDatabase, SessionRow } from './core-tables.js';
import type { SessionRecord } from './session-records.js';
import { now } from './store-clock.js';

// The `session` table: one row per conversation (its deferred activation set lives in
// todos-and-activation.ts, its removal in session-history.ts).

function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    workspaceRoot: row.workspace_root,
    title: row.title,
    parentSessionId: row.parent_session_id,
    forkedAtTurnId: row.forked_at_turn_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What a new session is made from; the id is random unless given. */
export interface NewSession {
  workspaceRoot: string;
  title?: string | null;
  parentSessionId?: string;
  forkedAtTurnId?: string | null;
  id?: string;
}

export async function insertSession(db: CoreDatabase, input: NewSession): Promise<SessionRecord> {
  const timestamp = now();
  const row: SessionRow = {
    id: input.id ?? randomUUID(),
    workspace_root: input.workspaceRoot,
    title: input.title ?? null,
    parent_session_id: input.parentSessionId ?? null,
    forked_at_turn_id: input.forkedAtTurnId ?? null,
    activation_json: '[]',
    created_at: timestamp,
    updated_at: timestamp,
  };
  await db.insertInto('session').values(row).execute();
  return toSession(row);
}

export async function findSession(db: CoreDatabase, sessionId: string): Promise<SessionRecord | undefined> {
  const row = await db.selectFrom('session').selectAll().where('id', '=', sessionId).executeTakeFirst();
  return row ? toSession(row) : undefined;
}

/** The session, or a `session_not_found` error that says how to list sessions. */
export async function requireSession(db: CoreDatabase, sessionId: string): Promise<SessionRecord> {
  const session = await findSession(db, sessionId);
  if (!session)
    throw new ClawsmithError(
      'session_not_found',
      `No session ${JSON.stringify(sessionId)}; list sessions with 'clawsmith sessions'.`,
    );
  return session;
}

/** Sessions by last activity, newest first; `limit` and `offset` page through them. */
export async function listSessions(
  db: CoreDatabase,
  options: { limit?: number; offset?: number },
): Promise<SessionRecord[]> {
  let query = db.selectFrom('session').selectAll().orderBy('updated_at', 'desc').orderBy('id');
  if (options.limit !== undefined) query = query.limit(options.limit).offset(options.offset ?? 0);
  const rows = await query.execute();
  return rows.map(toSession);
}

/**
 * Replaces the title and returns the renamed session, in one statement; a session that does not
 * exist is `session_not_found`.
 */
export async function renameSession(db: CoreDatabase, sessionId: string, title: string): Promise<SessionRecord> {
  const row = await db
    .updateTable('session')
    .set({ title, updated_at: now() })
    .where('id', '=', sessionId)
    .returningAll()
    .executeTakeFirst();
  if (!row) return requireSession(db, sessionId);
  return toSession(row);
}

/** Sets the title of a session that has none; a session that has one keeps it. */
export async function fillMissingTitle(db: CoreDatabase, sessionId: string, title: string): Promise<void> {
  await db
    .updateTable('session')
    .set({ title, updated_at: now() })
    .where('id', '=', sessionId)
    .where('title', 'is', null)
    .execute();
}
