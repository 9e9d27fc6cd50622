import { randomUUID } from 'node:crypto';
import type { CoreDatabase, SessionApprovalRow } from './core-tables.js';
import type { PendingApproval } from './session-records.js';
import { now } from './store-clock.js';

// The `session_approval` table: calls waiting for a person's answer (a restore clears them).

function toApproval(row: SessionApprovalRow): PendingApproval {
  return {
    id: row.id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    summary: row.summary,
    risk: row.risk,
    reason: row.reason,
    createdAt: row.created_at,
  };
}

/** A pending approval with its id and time, not written yet (see {@link insertApproval}). */
export function newPendingApproval(approval: Omit<PendingApproval, 'id' | 'createdAt'>): PendingApproval {
  return { ...approval, id: randomUUID(), createdAt: now() };
}

export async function insertApproval(db: CoreDatabase, stored: PendingApproval): Promise<void> {
  await db
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
}

export async function addApproval(
  db: CoreDatabase,
  approval: Omit<PendingApproval, 'id' | 'createdAt'>,
): Promise<PendingApproval> {
  const stored = newPendingApproval(approval);
  await insertApproval(db, stored);
  return stored;
}

export async function removeApproval(db: CoreDatabase, approvalId: string): Promise<void> {
  await db.deleteFrom('session_approval').where('id', '=', approvalId).execute();
}

export async function listApprovals(db: CoreDatabase, sessionId: string): Promise<PendingApproval[]> {
  const rows = await db
    .selectFrom('session_approval')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .execute();
  return rows.map(toApproval);
}
