import { randomUUID } from 'node:crypto';
import type { CoreServices } from './core-services.js';
import type { HeldSession } from './turn-claims/session-claim.js';
import type { TurnContext } from './lifecycle/turn-context.js';
import { turnPermissions, type ApprovalOverride, type PermissionSettings } from './permissions/turn-permissions.js';
import type { TurnSettings } from './agent-core-options.js';
import { recoverSession } from './recovery.js';
import type { TurnStep } from './store/session-store.js';

/** What a turn is opened with besides its prompt. */
export interface TurnOpening extends ApprovalOverride {
  /** Cancels the turn. */
  readonly signal: AbortSignal;
  /** The session's claim, taken by the caller (`claimSession`). */
  readonly held: HeldSession;
  /** The turn's workspace settings, besides the core's. */
  readonly settings?: TurnSettings;
  /**
   * What the turn records first, when it is known before the turn opens (a direct call's
   * `turn.started` and messages): written with the turn's start in one transaction.
   */
  readonly firstStep?: (opened: { turnId: string; restorePointId: string }) => Pick<TurnStep, 'events' | 'messages'>;
}

/** The core's permission settings with a turn's workspace settings added. */
function withTurnSettings(permissions: PermissionSettings, settings: TurnSettings | undefined): PermissionSettings {
  if (!settings) return permissions;
  const resultHooks = [...(permissions.resultHooks ?? []), ...(settings.resultHooks ?? [])];
  return {
    ...permissions,
    rules: [...permissions.rules, ...(settings.rules ?? [])],
    hooks: [...permissions.hooks, ...(settings.hooks ?? [])],
    ...(resultHooks.length > 0 ? { resultHooks } : {}),
  };
}

/**
 * Opens a turn the same way for a model turn and a direct call: recovers what a dead process
 * left in the session, begins the restore point (with the message count, last event and the
 * todos and activation to restore on undo), records the turn as started (with its `firstStep`), and returns the one
 * {@link TurnContext} its calls share. The caller has already claimed the session
 * (`claimSession`), so recovery closes every running turn of another owner.
 */
export async function openTurn(
  core: CoreServices,
  session: { readonly id: string; readonly workspaceRoot: string },
  prompt: string,
  opening: TurnOpening,
): Promise<TurnContext> {
  const { store } = core;
  await recoverSession(core, session.id);
  const turnId = randomUUID();
  const activation = await core.activationFor(session.id);
  const checkpoint = await core.checkpoints.beginTurn({
    sessionId: session.id,
    turnId,
    workspaceRoot: session.workspaceRoot,
    messageCount: await store.countMessages(session.id),
    eventSequence: await store.lastSequence(session.id),
    todoSnapshot: { todos: await store.getTodos(session.id), activation: activation.activeTools() },
  });
  const start = {
    sessionId: session.id,
    turnId,
    prompt,
    activation: activation.activeTools(),
    startedAt: new Date().toISOString(),
    owner: core.owner,
  };
  if (opening.firstStep) {
    const first = opening.firstStep({ turnId, restorePointId: checkpoint.restorePointId });
    await store.recordStep(session.id, { turnId, start, ...first });
  } else {
    await store.startTurn(start);
  }
  return {
    core,
    session: { id: session.id, workspaceRoot: session.workspaceRoot },
    turnId,
    signal: opening.signal,
    checkpoint,
    activation,
    permissions: turnPermissions(
      withTurnSettings(core.permissions, opening.settings),
      core.sessionAllowances(session.id),
      opening,
    ),
    ...((opening.settings?.turnHooks ?? core.turnHooks)
      ? { turnHooks: opening.settings?.turnHooks ?? core.turnHooks }
      : {}),
    seenCallIds: new Set(),
    held: opening.held,
  };
}
