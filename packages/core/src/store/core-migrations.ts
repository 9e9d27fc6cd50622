import { migrateUnderLock } from '@clawsmith/platform';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';

/** The session store's schema. Portable SQL types only (text, integer), so PostgreSQL can run it. */
export const coreMigrations: Record<string, Migration> = {
  '0001_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('session')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('workspace_root', 'text', (column) => column.notNull())
        .addColumn('title', 'text')
        .addColumn('parent_session_id', 'text')
        .addColumn('forked_at_turn_id', 'text')
        .addColumn('activation_json', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('session_message')
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('turn_id', 'text')
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('message_json', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('session_message_pk', ['session_id', 'position'])
        .execute();
      await db.schema
        .createTable('session_event')
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('sequence', 'integer', (column) => column.notNull())
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('turn_id', 'text')
        .addColumn('payload_json', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('session_event_pk', ['session_id', 'sequence'])
        .execute();
      await db.schema
        .createTable('session_turn')
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('turn_id', 'text', (column) => column.notNull())
        .addColumn('ordinal', 'integer', (column) => column.notNull())
        .addColumn('prompt', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('activation_json', 'text', (column) => column.notNull())
        .addColumn('owner_pid', 'integer', (column) => column.notNull())
        .addColumn('started_at', 'text', (column) => column.notNull())
        .addColumn('completed_at', 'text')
        .addPrimaryKeyConstraint('session_turn_pk', ['session_id', 'turn_id'])
        .execute();
      await db.schema
        .createTable('session_approval')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('turn_id', 'text', (column) => column.notNull())
        .addColumn('tool_call_id', 'text', (column) => column.notNull())
        .addColumn('tool_name', 'text', (column) => column.notNull())
        .addColumn('summary', 'text', (column) => column.notNull())
        .addColumn('risk', 'text', (column) => column.notNull())
        .addColumn('reason', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createTable('session_todos')
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('content', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('session_todos_pk', ['session_id', 'position'])
        .execute();
      await db.schema
        .createIndex('session_event_turn')
        .on('session_event')
        .columns(['session_id', 'turn_id'])
        .execute();
      await db.schema.createIndex('session_approval_session').on('session_approval').column('session_id').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'session_todos',
        'session_approval',
        'session_turn',
        'session_event',
        'session_message',
        'session',
      ]) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
      }
    },
  },
  '0002_undone_turns': {
    // A conversation undo deletes its turns; this keeps what they were, so a second undo of the
    // same turn can say so and `checkpoints` can still show the turn's status and prompt.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('session_undone_turn')
        .addColumn('session_id', 'text', (column) => column.notNull())
        .addColumn('turn_id', 'text', (column) => column.notNull())
        .addColumn('ordinal', 'integer', (column) => column.notNull())
        .addColumn('prompt', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('activation_json', 'text', (column) => column.notNull())
        .addColumn('owner_pid', 'integer', (column) => column.notNull())
        .addColumn('started_at', 'text', (column) => column.notNull())
        .addColumn('completed_at', 'text')
        .addColumn('undone_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('session_undone_turn_pk', ['session_id', 'turn_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('session_undone_turn').ifExists().execute();
    },
  },
  '0003_session_delegations': {
    // A child session (a subagent) and what delegated it: the parent session, turn and tool call.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('session_delegation')
        .addColumn('child_session_id', 'text', (column) => column.primaryKey())
        .addColumn('parent_session_id', 'text', (column) => column.notNull())
        .addColumn('parent_turn_id', 'text', (column) => column.notNull())
        .addColumn('parent_tool_call_id', 'text', (column) => column.notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('prompt', 'text', (column) => column.notNull())
        .addColumn('result_json', 'text')
        .addColumn('notified_at', 'text')
        .addColumn('owner_pid', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('completed_at', 'text')
        .execute();
      await db.schema
        .createIndex('session_delegation_parent')
        .on('session_delegation')
        .column('parent_session_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('session_delegation').ifExists().execute();
    },
  },
  '0004_maintenance': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('core_maintenance')
        .addColumn('name', 'text', (column) => column.primaryKey())
        .addColumn('last_run_at', 'bigint', (column) => column.notNull())
        .execute();
      // A new (or newly upgraded) home is not due at once: the first run comes one interval later.
      await sql`insert into core_maintenance (name, last_run_at) values ('retention', ${Date.now()})`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table if exists core_maintenance`.execute(db);
    },
  },
  '0005_turn_lookups': {
    // Before every turn and direct call the store reads the session's last ordinal and its running
    // turns; without these both scanned every turn of the session (an MCP session has one per call).
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('session_turn_order').on('session_turn').columns(['session_id', 'ordinal']).execute();
      await db.schema
        .createIndex('session_turn_status')
        .on('session_turn')
        .columns(['session_id', 'status', 'ordinal'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('session_turn_status').ifExists().execute();
      await db.schema.dropIndex('session_turn_order').ifExists().execute();
    },
  },
  '0006_session_claims': {
    // A turn is claimed across processes and machines: `session_claim` holds who runs the
    // session's turn and until when (a lease its heartbeat renews, in the database's clock), and a
    // turn row says which process instance on which host ran it. Turn rows written before this
    // have no host or instance and are judged by their pid, as they were.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('session_claim')
        .addColumn('session_id', 'text', (column) => column.primaryKey())
        .addColumn('owner_host', 'text', (column) => column.notNull())
        .addColumn('owner_boot_id', 'text', (column) => column.notNull())
        .addColumn('owner_pid', 'integer', (column) => column.notNull())
        .addColumn('owner_instance', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'bigint', (column) => column.notNull())
        .addColumn('claimed_at', 'text', (column) => column.notNull())
        .execute();
      for (const table of ['session_turn', 'session_undone_turn']) {
        await db.schema.alterTable(table).addColumn('owner_host', 'text').execute();
        await db.schema.alterTable(table).addColumn('owner_instance', 'text').execute();
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['session_turn', 'session_undone_turn']) {
        await db.schema.alterTable(table).dropColumn('owner_instance').execute();
        await db.schema.alterTable(table).dropColumn('owner_host').execute();
      }
      await db.schema.dropTable('session_claim').ifExists().execute();
    },
  },
};

/** Brings the session store's tables up to date, in their own migration table. */
export async function migrateCore<Tables>(db: Kysely<Tables>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => coreMigrations },
    migrationTableName: 'clawsmith_core_migration',
    migrationLockTableName: 'clawsmith_core_migration_lock',
  });
  await migrateUnderLock(db, migrator, {
    migrationTableName: 'clawsmith_core_migration',
    migrationNames: Object.keys(coreMigrations),
  });
}
