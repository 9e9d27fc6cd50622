import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/platform public surface', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DatabaseUnavailableError',
      'MIGRATION_ADVISORY_LOCK_KEY',
      'NOTIFICATION_LISTENER_APPLICATION',
      'SQLITE_BUSY_TIMEOUT_MS',
      'WorkspaceTrustRecords',
      'canListenForNotifications',
      'databaseEngineOf',
      'eitherSignal',
      'isPostgresUrl',
      'listenForNotifications',
      'migrateUnderLock',
      'openDatabase',
      'openPostgresDatabase',
      'openSqliteDatabase',
      'processIsAlive',
      'redactDatabaseUrl',
      'threadModuleUrl',
      'withStatementCache',
    ]);
  });

  it('keeps the error code and the advisory lock key that other processes of a home must agree on', () => {
    expect(new api.DatabaseUnavailableError('postgres://u:***@h/d', new Error('refused')).code).toBe(
      'database_unavailable',
    );
    // Processes of two versions must take the same lock, or they would migrate side by side.
    expect(api.MIGRATION_ADVISORY_LOCK_KEY).toBe(3025651251750812017n);
  });
});
