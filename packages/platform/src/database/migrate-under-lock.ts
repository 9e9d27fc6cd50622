import { createHash } from 'node:crypto';
import { sql, type Kysely, type Migrator } from 'kysely';
import { databaseEngineOf } from './database-engine.js';

/**
 * The PostgreSQL advisory lock every clawsmith migration of one database takes: one key for the
 * whole home, so the packages' migrations run one after another, never side by side.
 */
export const MIGRATION_ADVISORY_LOCK_KEY: bigint = createHash('sha256')
  .update('clawsmith home migrations')
  .digest()
  .readBigInt64BE(0);

/** What a current database has applied: {@link migrateUnderLock} checks it before locking anything. */
export interface AppliedMigrations {
  /** The migrator's `migrationTableName`. */
  readonly migrationTableName: string;
  /** The names of every migration the migrator's provider returns. */
  readonly migrationNames: readonly string[];
}

/**
 * Runs `migrator` to its latest migration while holding a lock that other processes opening the
 * same database wait on, so that many processes starting together migrate once and each later
 * one finds everything applied. Throws the migrator's error if a migration fails.
 *
 * - SQLite: the write lock (`BEGIN IMMEDIATE`) from reading what was applied to the last
 *   migration, because Kysely takes no lock there and two processes would both read "nothing
 *   applied" and both create the tables; a failing migration is rolled back whole. Waiting is
 *   bounded by the connection's busy timeout.
 * - PostgreSQL: the session advisory lock {@link MIGRATION_ADVISORY_LOCK_KEY}
 *   (`pg_advisory_lock`), held on one pooled connection while the migrator works on others, from
 *   before Kysely creates its migration tables (which two processes would otherwise race to
 *   create) to the end. PostgreSQL runs each migration in a transaction of its own.
 * - Any other dialect: Kysely's own locking.
 *
 * With `current`, a database whose migration table already lists exactly those migrations is left
 * alone after one read: no lock (a process opening a home never waits behind another's write), no
 * schema introspection. Anything else (a missing table, a migration not applied yet, one this
 * version does not know) goes through the migrator as before, which applies or reports it.
 */
export async function migrateUnderLock<Tables>(
  db: Kysely<Tables>,
  migrator: Migrator,
  current?: AppliedMigrations,
): Promise<void> {
  if (current && (await isCurrent(db, current))) return;
  const engine = databaseEngineOf(db);
  if (engine === 'sqlite') {
    await sql`begin immediate`.execute(db);
    try {
      await migrateToLatest(migrator);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
    return;
  }
  if (engine === 'postgres') {
    // pg sends a JavaScript bigint as nothing it knows; the key goes as decimal text.
    const lockKey = MIGRATION_ADVISORY_LOCK_KEY.toString();
    await db.connection().execute(async (lockHolder) => {
      await sql`select pg_advisory_lock(${lockKey}::bigint)`.execute(lockHolder);
      try {
        await migrateToLatest(migrator);
      } finally {
        await sql`select pg_advisory_unlock(${lockKey}::bigint)`.execute(lockHolder);
      }
    });
    return;
  }
  await migrateToLatest(migrator);
}

async function isCurrent<Tables>(db: Kysely<Tables>, current: AppliedMigrations): Promise<boolean> {
  let applied: readonly string[];
  try {
    // Committed rows only: a migration another process is applying right now is not listed yet.
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(current.migrationTableName)}`.execute(db);
    applied = rows.map((row) => row.name);
  } catch {
    // No migration table yet (a new database): the migrator creates it.
    return false;
  }
  const known = new Set(current.migrationNames);
  return applied.length === known.size && applied.every((name) => known.has(name));
}

async function migrateToLatest(migrator: Migrator): Promise<void> {
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
