import type { CommandExecutionService } from '@clawsmith/command-sandbox';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import type { CoreServices } from './core-services.js';
import { turnOwnerIsAlive } from './turn-claims/session-claim.js';

/** What deleting a session removed. */
export interface SessionDeletion {
  /** The session deleted. */
  readonly sessionId: string;
  /** Its restore points removed. */
  readonly restorePointsRemoved: number;
  /** Checkpoint blobs no other restore point used, removed. */
  readonly blobsRemoved: number;
  /** Its artifacts removed (those shared with a fork pass to the fork). */
  readonly artifactsRemoved: number;
}

/**
 * Deletes a session everywhere it is stored. Order matters for "loses nothing": checkpoints
 * first (they refuse while an undo is being applied, before anything is gone), then artifacts,
 * then the session's own rows, so a failure part way leaves a session that can still be opened
 * and deleted again.
 */
export async function deleteSession(
  services: CoreServices,
  sessionId: string,
  commands: CommandExecutionService | undefined,
): Promise<SessionDeletion> {
  const { store } = services;
  await store.requireSession(sessionId);
  for (const running of await store.listRunningTurns(sessionId))
    if (await turnOwnerIsAlive(services, running))
      throw new ClawsmithError(
        'session_busy',
        `Session ${sessionId} has a turn running (process ${running.ownerPid}${running.ownerHost ? ` on ${running.ownerHost}` : ''}); stop it first, then delete the session.`,
      );
  await commands?.endSession(sessionId);
  const checkpoints = await services.checkpoints.deleteSession(sessionId);
  const artifactsRemoved = (await services.artifacts?.deleteSession(sessionId)) ?? 0;
  await store.deleteSession(sessionId);
  return {
    sessionId,
    restorePointsRemoved: checkpoints.deletedRestorePoints,
    blobsRemoved: checkpoints.deletedBlobs,
    artifactsRemoved,
  };
}
