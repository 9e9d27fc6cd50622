import {
  ClawsmithError,
  type FilePostimage,
  type FilePreimage,
  type ToolExecutionContext,
} from '@clawsmith/tool-protocol';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

function messageOf(error: unknown): string {
  return error instanceof Error || ClawsmithError.isInstance(error) ? (error as Error).message : String(error);
}

/**
 * Records what `relativePath` holds before a change. A recorder that throws stops the change:
 * a change that cannot be undone is not made, and the error says nothing was written.
 */
export async function recordBeforeChange(
  context: ToolExecutionContext,
  relativePath: string,
  preimage: FilePreimage,
): Promise<void> {
  if (!context.fileChanges) return;
  try {
    await context.fileChanges.beforeChange(relativePath, preimage);
  } catch (error) {
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.changeNotRecorded,
      `Nothing was written: the change to ${relativePath} could not be recorded for undo (${messageOf(error)}).`,
      { path: relativePath, retryable: ClawsmithError.isInstance(error) && error.retryable, cause: error },
    );
  }
}

/** Records what `relativePath` holds right after a change. */
export async function recordAfterChange(
  context: ToolExecutionContext,
  relativePath: string,
  postimage: FilePostimage,
): Promise<void> {
  if (!context.fileChanges) return;
  try {
    await context.fileChanges.afterChange(relativePath, postimage);
  } catch (error) {
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.changeNotRecorded,
      `${relativePath} was changed, but its new state could not be recorded for undo (${messageOf(error)}). Check the file before relying on undo.`,
      { path: relativePath, cause: error },
    );
  }
}
