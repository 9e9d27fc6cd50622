import { ClawsmithError, type ClawsmithErrorOptions } from '@clawsmith/tool-protocol';
import type { UndoConflict } from './file-state.js';

/** Every error code this package throws, as a stable list callers can branch on. */
export const CHECKPOINT_ERROR_CODES = [
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
] as const;

/** One of {@link CHECKPOINT_ERROR_CODES}. */
export type CheckpointErrorCode = (typeof CHECKPOINT_ERROR_CODES)[number];

/** A checkpoint operation failed; `code` says which way, `message` what to do next. */
export class CheckpointError extends ClawsmithError {
  declare readonly code: CheckpointErrorCode;

  constructor(code: CheckpointErrorCode, message: string, options: ClawsmithErrorOptions = {}) {
    super(code, message, options);
    this.name = 'CheckpointError';
  }
}

/**
 * An undo was refused because files no longer hold what the agent wrote (a person edited them,
 * they became symlinks or folders, or they changed between turns). Nothing was written.
 */
export class CheckpointConflictError extends CheckpointError {
  /** Every conflicting path with what the undo expected and what it found. */
  readonly conflicts: readonly UndoConflict[];

  constructor(conflicts: readonly UndoConflict[]) {
    const listed = conflicts
      .slice(0, 5)
      .map((conflict) => conflict.path)
      .join(', ');
    const more = conflicts.length > 5 ? ` and ${conflicts.length - 5} more` : '';
    super(
      'checkpoint_conflict',
      `Undo refused: ${conflicts.length} file(s) changed since the agent wrote them (${listed}${more}); nothing was changed. ` +
        'Review those files, put back the agent version or keep yours, then retry or undo a later turn only.',
    );
    this.name = 'CheckpointConflictError';
    this.conflicts = conflicts;
  }
}

/**
 * The conflicts of a refused undo (`checkpoint_conflict`), or `undefined` for any other value.
 * Works across copies of this package (a consumer may hold a different copy than the one that
 * threw), where `instanceof CheckpointConflictError` would not.
 */
export function undoConflictsOf(error: unknown): readonly UndoConflict[] | undefined {
  if (!ClawsmithError.isInstance(error) || error.code !== 'checkpoint_conflict') return undefined;
  const conflicts = (error as { conflicts?: unknown }).conflicts;
  return Array.isArray(conflicts) ? (conflicts as readonly UndoConflict[]) : [];
}
