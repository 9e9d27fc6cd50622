import { migrateUnderLock } from '@clawsmith/platform';
import { Migrator, type Kysely, type Migration } from 'kysely';

/** Name of the table where this package's Kysely migrator records applied migrations. */
export const ARTIFACT_MIGRATION_TABLE = 'clawsmith_artifacts_migration';
/** Name of the lock table of this package's migrator. */
export const ARTIFACT_MIGRATION_LOCK_TABLE = 'clawsmith_artifacts_migration_lock';

/**
 * The migrations of the artifact tables, keyed by name in the order they apply. Sizes and
 * times are `bigint` (milliseconds since the epoch) so the schema also runs on PostgreSQL.
 */
export const artifactMigrations: Record<string, Migration> = Object.freeze({
  '2026_12_01_0001_artifact_tables': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('artifact_records')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('session_id', 'varchar(255)', (column) => column.notNull())
        .addColumn('tool_call_id', 'varchar(255)', (column) => column.notNull())
        .addColumn('media_type', 'varchar(255)', (column) => column.notNull())
        .addColumn('state', 'varchar(16)', (column) => column.notNull())
        .addColumn('byte_length', 'bigint', (column) => column.notNull())
        .addColumn('line_count', 'bigint', (column) => column.notNull())
        .addColumn('sha256', 'varchar(64)')
        .addColumn('created_at', 'bigint', (column) => column.notNull())
        .addColumn('updated_at', 'bigint', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('artifact_records_session_created')
        .on('artifact_records')
        .columns(['session_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('artifact_line_marks')
        .addColumn('artifact_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('line_number', 'bigint', (column) => column.notNull())
        .addColumn('byte_offset', 'bigint', (column) => column.notNull())
        .addPrimaryKeyConstraint('artifact_line_marks_pk', ['artifact_id', 'line_number'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('artifact_line_marks').execute();
      await db.schema.dropTable('artifact_records').execute();
    },
  },
  // A fork reads its parent's artifacts: the tool results and compaction stubs it inherits name them.
  '2026_12_06_0001_artifact_shares': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('artifact_shares')
        .addColumn('artifact_id', 'varchar(64)', (column) => column.notNull())
        .addColumn('session_id', 'varchar(255)', (column) => column.notNull())
        .addPrimaryKeyConstraint('artifact_shares_pk', ['artifact_id', 'session_id'])
        .execute();
      await db.schema.createIndex('artifact_shares_session').on('artifact_shares').column('session_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('artifact_shares').execute();
    },
  },
});

/**
 * Applies every pending artifact migration to `db`, with this package's own migration tables
 * so several packages can migrate one database. Throws the migrator's error if one fails.
 */
export async function migrateArtifacts<Tables>(db: Kysely<Tables>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => artifactMigrations },
    migrationTableName: ARTIFACT_MIGRATION_TABLE,
    migrationLockTableName: ARTIFACT_MIGRATION_LOCK_TABLE,
  });
  await migrateUnderLock(db, migrator, {
    migrationTableName: ARTIFACT_MIGRATION_TABLE,
    migrationNames: Object.keys(artifactMigrations),
  });
}
