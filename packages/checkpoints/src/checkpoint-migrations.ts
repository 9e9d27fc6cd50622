import { migrateUnderLock } from '@clawsmith/platform';
import { Migrator, PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import type { HostDatabase } from './checkpoint-schema.js';

/** Kysely's bookkeeping tables for these migrations, separate so several packages migrate one database. */
export const CHECKPOINT_MIGRATION_TABLES = {
  migrationTableName: 'clawsmith_checkpoints_migration',
  migrationLockTableName: 'clawsmith_checkpoints_migration_lock',
} as const;

function binaryType(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;
}

/**
 * The migrations of the `checkpoint_` tables, keyed in the order they run. The host may run
 * them itself with its own `Migrator` (using {@link CHECKPOINT_MIGRATION_TABLES}) or call
 * {@link migrateCheckpoints}.
 */
export const checkpointMigrations: Record<string, Migration> = {
  '2025-01-01-0001-checkpoints': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('checkpoint_restore_point')
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('turn_id', 'text', (column) => column.notNull())
        .addColumn('sequence', 'integer', (column) => column.notNull())
        .addColumn('workspace_root', 'text', (column) => column.notNull())
        .addColumn('message_count', 'integer', (column) => column.notNull())
        .addColumn('event_sequence', 'bigint', (column) => column.notNull())
        .addColumn('todo_snapshot', 'text', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('completed_at', 'bigint')
        .addColumn('undone_at', 'bigint')
        .addColumn('bytes', 'bigint', (column) => column.notNull().defaultTo(0))
        .addColumn('forked_from_session_id', 'text')
        .addPrimaryKeyConstraint('checkpoint_restore_point_pk', ['session_id', 'turn_id'])
        .addUniqueConstraint('checkpoint_restore_point_sequence', ['session_id', 'sequence'])
        .execute();
      await db.schema
        .createTable('checkpoint_file_change')
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('turn_id', 'text', (column) => column.notNull())
        .addColumn('path', 'text', (column) => column.notNull())
        .addColumn('ordinal', 'integer', (column) => column.notNull())
        .addColumn('before_state', 'text', (column) => column.notNull())
        .addColumn('before_sha256', 'text')
        .addColumn('before_mode', 'integer')
        .addColumn('before_bytes', 'bigint')
        .addColumn('after_state', 'text')
        .addColumn('after_sha256', 'text')
        .addColumn('after_bytes', 'bigint')
        .addColumn('after_stored', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('lines_added', 'integer')
        .addColumn('lines_removed', 'integer')
        .addColumn('binary', 'integer', (column) => column.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('checkpoint_file_change_pk', ['session_id', 'turn_id', 'path'])
        .execute();
      await db.schema
        .createIndex('checkpoint_file_change_before')
        .on('checkpoint_file_change')
        .column('before_sha256')
        .execute();
      await db.schema
        .createIndex('checkpoint_file_change_after')
        .on('checkpoint_file_change')
        .column('after_sha256')
        .execute();
      await db.schema
        .createTable('checkpoint_blob')
        .addColumn('sha256', 'text', (column) => column.primaryKey())
        .addColumn('content', binaryType(db), (column) => column.notNull())
        .addColumn('bytes', 'bigint', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('checkpoint_restore_journal')
        .addColumn('journal_id', 'text', (column) => column.primaryKey())
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('turn_id', 'text', (column) => column.notNull())
        .addColumn('state', 'text', (column) => column.notNull())
        .addColumn('undone_turn_ids', 'text', (column) => column.notNull())
        .addColumn('owner_host', 'text', (column) => column.notNull())
        .addColumn('owner_pid', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('checkpoint_restore_journal_session')
        .on('checkpoint_restore_journal')
        .columns(['session_id', 'state'])
        .execute();
      await db.schema
        .createTable('checkpoint_restore_entry')
        .addColumn('journal_id', 'text', (column) => column.notNull())
        .addColumn('ordinal', 'integer', (column) => column.notNull())
        .addColumn('workspace_root', 'text', (column) => column.notNull())
        .addColumn('path', 'text', (column) => column.notNull())
        .addColumn('expected_state', 'text', (column) => column.notNull())
        .addColumn('expected_sha256', 'text')
        .addColumn('target_state', 'text', (column) => column.notNull())
        .addColumn('target_sha256', 'text')
        .addColumn('target_mode', 'integer')
        .addPrimaryKeyConstraint('checkpoint_restore_entry_pk', ['journal_id', 'ordinal'])
        .execute();
      await db.schema
        .createIndex('checkpoint_restore_entry_target')
        .on('checkpoint_restore_entry')
        .column('target_sha256')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'checkpoint_restore_entry',
        'checkpoint_restore_journal',
        'checkpoint_blob',
        'checkpoint_file_change',
        'checkpoint_restore_point',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  },
  '2026-12-02-0002-command-capture': {
    // Commands change modes, links and folders: the mode a change left is kept beside its hash.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('checkpoint_file_change').addColumn('after_mode', 'integer').execute();
      await db.schema.alterTable('checkpoint_restore_point').addColumn('notes', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('checkpoint_restore_point').dropColumn('notes').execute();
      await db.schema.alterTable('checkpoint_file_change').dropColumn('after_mode').execute();
    },
  },
  '2026-12-06-0003-blob-chunks': {
    // A body over 1 MiB (a large file a command changed) is kept in pieces, so that storing and
    // restoring it never needs the whole of it in one row, one message or one buffer.
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('checkpoint_blob')
        .addColumn('chunks', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('checkpoint_blob_chunk')
        .addColumn('sha256', 'text', (column) => column.notNull())
        .addColumn('chunk_index', 'integer', (column) => column.notNull())
        .addColumn('content', binaryType(db), (column) => column.notNull())
        .addPrimaryKeyConstraint('checkpoint_blob_chunk_pk', ['sha256', 'chunk_index'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('checkpoint_blob_chunk').ifExists().execute();
      await db.schema.alterTable('checkpoint_blob').dropColumn('chunks').execute();
    },
  },
};

/**
 * Runs {@link checkpointMigrations} on `db` with a Kysely `Migrator` that keeps its own
 * bookkeeping tables. Throws the migration's error when one fails.
 */
export async function migrateCheckpoints<Tables>(db: HostDatabase<Tables>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => checkpointMigrations },
    ...CHECKPOINT_MIGRATION_TABLES,
  });
  await migrateUnderLock(db, migrator, {
    migrationTableName: CHECKPOINT_MIGRATION_TABLES.migrationTableName,
    migrationNames: Object.keys(checkpointMigrations),
  });
}
