// Everything exported here is the public API of @clawsmith/checkpoints; the surface is pinned by
// public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { CheckpointStore, CheckpointStoreOptions, RestorePoint, RestorePointSummary } from './checkpoint-store.js';
export { createCheckpointStore } from './checkpoint-store.js';

export type { BeginTurnInput, TurnCheckpoint } from './turn-checkpoint.js';
export type { SqliteHandle } from './sqlite-statements.js';
export type { FileChangeKind, ManifestEntryKind, ManifestFile, TurnManifest } from './turn-manifest.js';
export type { FileState, FoundState, UndoConflict } from './file-state.js';
export type { UndoOptions, UndoProgress, UndoResult } from './restore-journal.js';
export type { DiffSide, FileDiff } from './file-diff.js';
export { DIFF_TEXT_LIMIT_BYTES } from './file-diff.js';
export { BLOB_CHUNK_BYTES } from './blob-store.js';
export type { ForkOptions, ForkResult } from './fork-session.js';
export type { DeleteSessionResult, CheckpointPruneResult, RetentionPolicy } from './retention.js';
export { DEFAULT_CHECKPOINT_RETENTION } from './retention.js';

export type { CheckpointErrorCode } from './checkpoint-errors.js';
export {
  CHECKPOINT_ERROR_CODES,
  CheckpointConflictError,
  CheckpointError,
  undoConflictsOf,
} from './checkpoint-errors.js';

export { CHECKPOINT_MIGRATION_TABLES, checkpointMigrations, migrateCheckpoints } from './checkpoint-migrations.js';
export { openCheckpointDatabase } from './checkpoint-database.js';
export { withStatementCache } from '@clawsmith/platform';
export type { HostDatabase } from './checkpoint-schema.js';
