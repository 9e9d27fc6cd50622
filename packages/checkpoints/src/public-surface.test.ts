import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/checkpoints public surface', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'BLOB_CHUNK_BYTES',
      'CHECKPOINT_ERROR_CODES',
      'CHECKPOINT_MIGRATION_TABLES',
      'CheckpointConflictError',
      'CheckpointError',
      'DEFAULT_CHECKPOINT_RETENTION',
      'DIFF_TEXT_LIMIT_BYTES',
      'checkpointMigrations',
      'createCheckpointStore',
      'migrateCheckpoints',
      'openCheckpointDatabase',
      'undoConflictsOf',
      'withStatementCache',
    ]);
  });

  it('pins the size of a stored piece of a large body', () => {
    expect(api.BLOB_CHUNK_BYTES).toBe(1_048_576);
  });

  it('pins the error codes and the retention defaults', () => {
    expect(api.CHECKPOINT_ERROR_CODES).toEqual([
      'checkpoint_conflict',
      'checkpoint_not_found',
      'checkpoint_already_undone',
      'checkpoint_turn_exists',
      'checkpoint_turn_completed',
      'checkpoint_turn_in_progress',
      'checkpoint_invalid_path',
      'checkpoint_missing_preimage',
      'checkpoint_undo_in_progress',
      'checkpoint_path_not_in_turn',
      'checkpoint_session_exists',
      'checkpoint_blob_missing',
      'checkpoint_workspace_unavailable',
      'checkpoint_journal_invalid',
    ]);
    expect(api.DEFAULT_CHECKPOINT_RETENTION).toEqual({
      maxAgeMs: 2_592_000_000,
      maxBytesPerSession: 104_857_600,
      maxBytesTotal: 1_073_741_824,
      keepNewestPerSession: 5,
    });
    expect(api.CHECKPOINT_MIGRATION_TABLES).toEqual({
      migrationTableName: 'clawsmith_checkpoints_migration',
      migrationLockTableName: 'clawsmith_checkpoints_migration_lock',
    });
  });

  it('documents every error code in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const code of api.CHECKPOINT_ERROR_CODES) expect(readme).toContain(`\`${code}\``);
  });
});
