import { setTimeout as delay } from 'node:timers/promises';
import { SqliteAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { CheckpointTables } from './checkpoint-schema.js';

/** Whether `error` is SQLite's SQLITE_BUSY (another connection holds the write lock). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `work` in one transaction that takes the write lock first. On SQLite that is
 * `BEGIN IMMEDIATE`: a deferred transaction that reads and then writes fails at once with
 * SQLITE_BUSY when another process (CLI and web share the file) committed in between, instead
 * of waiting out `busy_timeout`. A busy error is retried a few times with a growing pause.
 */
export async function writeTransaction<Result>(
  db: Kysely<CheckpointTables>,
  work: (transaction: Kysely<CheckpointTables>) => Promise<Result>,
): Promise<Result> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
        return await db.transaction().execute((transaction: Transaction<CheckpointTables>) => work(transaction));
      }
      return await db.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection);
        try {
          const result = await work(connection);
          await sql`commit`.execute(connection);
          return result;
        } catch (error) {
          await sql`rollback`.execute(connection).catch(() => undefined);
          throw error;
        }
      });
    } catch (error) {
      if (!isBusy(error) || attempt >= 20) throw error;
      await delay(5 + attempt * 10);
    }
  }
}
