import { setTimeout as delay } from 'node:timers/promises';
import { isBusy } from './write-transaction.js';

/**
 * The better-sqlite3 connection a host's Kysely database runs on (`new Database(file)`), as far as
 * the checkpoint store uses it: prepared statements, and whether a transaction is open on it.
 */
export interface SqliteHandle {
  prepare(sql: string): { run(...parameters: unknown[]): unknown };
  readonly inTransaction: boolean;
}

/** Statements prepared once on a connection, and write transactions run on it synchronously. */
export interface SqliteStatements {
  /** Runs `text` (prepared on first use) and returns how many rows it changed. */
  run(text: string, ...parameters: unknown[]): number;
  /**
   * Runs `work` between `BEGIN IMMEDIATE` and `COMMIT` with no await in between, so no other
   * query can interleave on the connection; rolled back if it throws; retried on SQLITE_BUSY.
   */
  immediate<Result>(work: () => Result): Promise<Result>;
}

const prepared = new WeakMap<SqliteHandle, SqliteStatements>();

/** The prepared statements of `sqlite`, shared by every user of that connection. */
export function sqliteStatements(sqlite: SqliteHandle): SqliteStatements {
  let statements = prepared.get(sqlite);
  if (statements !== undefined) return statements;
  const cache = new Map<string, ReturnType<SqliteHandle['prepare']>>();
  const statement = (text: string) => {
    let ready = cache.get(text);
    if (ready === undefined) cache.set(text, (ready = sqlite.prepare(text)));
    return ready;
  };
  statements = {
    run(text, ...parameters) {
      return Number((statement(text).run(...parameters) as { changes?: number }).changes ?? 0);
    },
    async immediate(work) {
      for (let attempt = 0; ; attempt += 1) {
        try {
          statement('begin immediate').run();
          try {
            const result = work();
            statement('commit').run();
            return result;
          } catch (error) {
            if (sqlite.inTransaction) statement('rollback').run();
            throw error;
          }
        } catch (error) {
          if (!isBusy(error) || attempt >= 20) throw error;
          await delay(5 + attempt * 10);
        }
      }
    },
  };
  prepared.set(sqlite, statements);
  return statements;
}
