import { randomUUID } from 'node:crypto';
import type { TurnCheckpoint } from '@clawsmith/checkpoints';
import type { SessionActivation } from '@clawsmith/deferred-tools';
import type { CoreServices } from './core-services.js';
import { recoverSession } from './recovery.js';

/** A turn just opened: its id, the session's activation, and its restore point. */
export interface OpenedTurn {
  readonly turnId: string;
  readonly activation: SessionActivation;
  readonly checkpoint: TurnCheckpoint;
}

/**
 * Opens a turn the same way for a model turn and a direct call: recovers what a dead process
 * left in the session, begins the restore point (with the message count, last event and the
 * todos and activation to restore on undo) and records the turn as started. The caller has
 * already claimed the session in `runningSessions`.
 */
export async function openTurn(
  services: CoreServices,
  session: { readonly id: string; readonly workspaceRoot: string },
  prompt: string,
): Promise<OpenedTurn> {
  const { store } = services;
  await recoverSession(services, session.id);
  const turnId = randomUUID();
  const activation = await services.activationFor(session.id);
  const checkpoint = await services.checkpoints.beginTurn({
    sessionId: session.id,
    turnId,
    workspaceRoot: session.workspaceRoot,
    messageCount: await store.countMessages(session.id),
    eventSequence: await store.lastSequence(session.id),
    todoSnapshot: { todos: await store.getTodos(session.id), activation: activation.activeTools() },
  });
  await store.startTurn({
    sessionId: session.id,
    turnId,
    prompt,
    activation: activation.activeTools(),
    startedAt: new Date().toISOString(),
  });
  return { turnId, activation, checkpoint };
}
