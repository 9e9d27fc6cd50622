import type { ModelMessage } from '@clawsmith/providers';
import type { CoreDatabase, SessionMessageRow } from './core-tables.js';
import { insertChunks } from './insert-chunks.js';
import { assertClaimHeld, type ClaimOwner } from './session-claims.js';
import { now } from './store-clock.js';

// The `session_message` table: the conversation as the provider sees it, in order from position 1.

/**
 * Appends after the session's last message, in one transaction that also touches the session;
 * with `heldBy`, only while that owner holds the session's claim (else `turn_claim_lost`).
 */
export async function appendMessages(
  db: CoreDatabase,
  sessionId: string,
  turnId: string | null,
  messages: readonly ModelMessage[],
  heldBy?: ClaimOwner,
): Promise<void> {
  if (messages.length === 0) return;
  await db.transaction().execute(async (transaction) => {
    if (heldBy) await assertClaimHeld(transaction, sessionId, heldBy);
    await insertMessages(transaction, sessionId, turnId, messages);
  });
}

/** Appends after the session's last message and touches the session; the caller holds the transaction. */
export async function insertMessages(
  transaction: CoreDatabase,
  sessionId: string,
  turnId: string | null,
  messages: readonly ModelMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  const last = await transaction
    .selectFrom('session_message')
    .select((builder) => builder.fn.max('position').as('position'))
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  let position = last?.position ?? 0;
  const timestamp = now();
  const rows = messages.map((message): SessionMessageRow => ({
    session_id: sessionId,
    position: (position += 1),
    turn_id: turnId,
    role: message.role,
    message_json: JSON.stringify(message),
    created_at: timestamp,
  }));
  for (const chunk of insertChunks(rows)) await transaction.insertInto('session_message').values(chunk).execute();
  await transaction.updateTable('session').set({ updated_at: timestamp }).where('id', '=', sessionId).execute();
}

export async function listMessages(db: CoreDatabase, sessionId: string): Promise<ModelMessage[]> {
  const rows = await db
    .selectFrom('session_message')
    .select('message_json')
    .where('session_id', '=', sessionId)
    .orderBy('position')
    .execute();
  return rows.map((row) => JSON.parse(row.message_json) as ModelMessage);
}

/**
 * How many messages the session has: its last position, since positions run from 1 without gaps
 * (appends take the next one, truncation and copies keep a prefix). One index lookup, where
 * COUNT read every message row of the session, at the start of every turn and direct call.
 */
export async function countMessages(db: CoreDatabase, sessionId: string): Promise<number> {
  const row = await db
    .selectFrom('session_message')
    .select((builder) => builder.fn.max('position').as('position'))
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}
