import type { CoreDatabase, SessionTodoRow } from './core-tables.js';
import type { TodoItem } from './session-records.js';
import { now } from './store-clock.js';

// What a restore point keeps besides messages and events: the todo list (`session_todos`) and
// the set of active deferred tools (the session's `activation_json`).

export async function listTodos(db: CoreDatabase, sessionId: string): Promise<TodoItem[]> {
  const rows = await db
    .selectFrom('session_todos')
    .select(['content', 'status'])
    .where('session_id', '=', sessionId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ content: row.content, status: row.status }));
}

/** Replaces the list in one transaction. */
export async function setTodos(db: CoreDatabase, sessionId: string, todos: readonly TodoItem[]): Promise<void> {
  await db.transaction().execute((transaction) => replaceTodos(transaction, sessionId, todos, now()));
}

/** Replaces the list; the caller holds the transaction (setTodos, or a restore's truncate). */
export async function replaceTodos(
  transaction: CoreDatabase,
  sessionId: string,
  todos: readonly TodoItem[],
  timestamp: string,
): Promise<void> {
  await transaction.deleteFrom('session_todos').where('session_id', '=', sessionId).execute();
  if (todos.length === 0) return;
  await transaction
    .insertInto('session_todos')
    .values(
      todos.map((todo, index): SessionTodoRow => ({
        session_id: sessionId,
        position: index + 1,
        content: todo.content,
        status: todo.status,
        updated_at: timestamp,
      })),
    )
    .execute();
}

/** The active deferred tools; none for an unknown session. */
export async function getActivation(db: CoreDatabase, sessionId: string): Promise<string[]> {
  const row = await db.selectFrom('session').select('activation_json').where('id', '=', sessionId).executeTakeFirst();
  return row ? (JSON.parse(row.activation_json) as string[]) : [];
}

/** The activation set as stored: sorted, so equal sets are equal text. */
export function activationJson(activeTools: readonly string[]): string {
  return JSON.stringify([...activeTools].sort());
}

export async function setActivation(
  db: CoreDatabase,
  sessionId: string,
  activeTools: readonly string[],
): Promise<void> {
  await db
    .updateTable('session')
    .set({ activation_json: activationJson(activeTools) })
    .where('id', '=', sessionId)
    .execute();
}
