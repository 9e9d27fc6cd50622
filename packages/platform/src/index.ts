// Everything exported here is public API of @clawsmith/platform.
export { databaseEngineOf, type DatabaseEngine } from './database/database-engine.js';
export type { DatabaseHandle, SharedTables } from './database/database-handle.js';
export { DatabaseUnavailableError } from './database/database-unavailable-error.js';
export { isPostgresUrl, redactDatabaseUrl } from './database/database-url.js';
export {
  MIGRATION_ADVISORY_LOCK_KEY,
  migrateUnderLock,
  type AppliedMigrations,
} from './database/migrate-under-lock.js';
export {
  NOTIFICATION_LISTENER_APPLICATION,
  canListenForNotifications,
  listenForNotifications,
  type NotificationListener,
  type NotificationListenerOptions,
} from './database/notification-listener.js';
export { openDatabase, type DatabaseLocation, type OpenedDatabase } from './database/open-database.js';
export {
  openPostgresDatabase,
  type PostgresDatabase,
  type PostgresDatabaseOptions,
} from './database/postgres-database.js';
export {
  SQLITE_BUSY_TIMEOUT_MS,
  openSqliteDatabase,
  type SqliteDatabase,
  type SqliteDatabaseOptions,
} from './database/sqlite-database.js';
export { withStatementCache } from './database/statement-cache.js';
export { processIsAlive } from './process/process-liveness.js';
export { eitherSignal } from './signal/either-signal.js';
export { threadModuleUrl } from './thread/thread-module.js';
export { WorkspaceTrustRecords, type RecordedTrust } from './trust/workspace-trust-records.js';
