import { ClawsmithError } from '@clawsmith/tool-protocol';
import type { RestoreScope } from './agent-core-options.js';
import type { CoreServices } from './core-services.js';
import type { SessionRecord, TodoItem } from './store/session-records.js';

/** What a restore did. */
export interface RestoreResult {
  /** The session restored. */
  readonly sessionId: string;
  /** The turn it was taken back to before. */
  readonly turnId: string;
  /** What was put back: the files, the conversation, or both. */
  readonly scope: RestoreScope;
  /** Paths whose files were put back (scope files or all). */
  readonly restoredPaths: readonly string[];
  /** Messages left in the session (scope session or all). */
  readonly messageCount?: number;
}

interface TodoSnapshot {
  readonly todos?: readonly TodoItem[];
  readonly activation?: readonly string[];
}

async function requireTurn(services: CoreServices, sessionId: string, turnId: string) {
  const turn = await services.store.getTurn(sessionId, turnId);
  if (!turn)
    throw new ClawsmithError(
      'turn_not_found',
      `Session ${sessionId} has no turn ${JSON.stringify(turnId)}; list them with 'clawsmith checkpoints --session ${sessionId}'.`,
    );
  return turn;
}

/**
 * The turn a restore names. A turn whose conversation was already undone can still have its
 * files put back; cutting its conversation again is refused with `turn_already_undone`.
 */
async function turnToRestore(services: CoreServices, sessionId: string, turnId: string, scope: RestoreScope) {
  const live = await services.store.getTurn(sessionId, turnId);
  if (live) return live;
  const undone = await services.store.getUndoneTurn(sessionId, turnId);
  if (!undone) return requireTurn(services, sessionId, turnId);
  if (scope === 'files') return undone;
  throw new ClawsmithError(
    'turn_already_undone',
    `The conversation of turn ${turnId} (#${undone.ordinal}, ${JSON.stringify(undone.prompt.slice(0, 60))}) was already undone at ${undone.undoneAt}; nothing to cut. ` +
      `Its files can still be put back with 'clawsmith undo files ${turnId} --session ${sessionId}'.`,
  );
}

/**
 * Restores a session to the point before `turnId`. `files` undoes the files of that turn and
 * every later one (refusing on any conflict before a byte changes); `session` truncates
 * messages and events, clears pending approvals and restores todos and deferred activation;
 * `all` prechecks the files, then restores files and session.
 */
export async function restoreTurn(
  services: CoreServices,
  sessionId: string,
  turnId: string,
  scope: RestoreScope,
): Promise<RestoreResult> {
  await services.store.requireSession(sessionId);
  if (services.runningSessions.has(sessionId))
    throw new ClawsmithError('turn_in_progress', 'A turn is running in this session; cancel it before restoring.');
  const turn = await turnToRestore(services, sessionId, turnId, scope);
  const point = await services.checkpoints.getRestorePoint(sessionId, turnId);
  let restoredPaths: string[] = [];
  if (scope === 'files' || scope === 'all') {
    const undone = await services.checkpoints.undoFiles(sessionId, turnId);
    restoredPaths = [...undone.restored, ...undone.deleted, ...undone.alreadyRestored].sort();
  }
  let messageCount: number | undefined;
  if (scope === 'session' || scope === 'all') {
    const snapshot = (point.todoSnapshot ?? {}) as TodoSnapshot;
    await services.store.truncate(sessionId, {
      turnId,
      messageCount: point.messageCount,
      eventSequence: point.eventSequence,
      turnOrdinal: turn.ordinal,
      todos: snapshot.todos ?? [],
      activation: snapshot.activation ?? turn.activation,
    });
    (await services.activationFor(sessionId)).reset(snapshot.activation ?? turn.activation);
    messageCount = point.messageCount;
  }
  await services.store.appendEvent(sessionId, {
    type: 'session.restored',
    turnId,
    scope,
    restoredPaths,
    ...(messageCount !== undefined ? { messageCount } : {}),
  });
  return { sessionId, turnId, scope, restoredPaths, ...(messageCount !== undefined ? { messageCount } : {}) };
}

/**
 * Forks a session: the child gets the parent's history up to the end of `atTurnId` (default:
 * all of it), shares its checkpoints by content hash and may read its artifacts. The parent is unchanged.
 */
export async function forkSession(
  services: CoreServices,
  parentSessionId: string,
  atTurnId?: string,
): Promise<SessionRecord> {
  const { store } = services;
  const parent = await store.requireSession(parentSessionId);
  const turns = await store.listTurns(parentSessionId);
  let point: { messageCount: number; eventSequence: number; turnOrdinal: number };
  let todos = await store.getTodos(parentSessionId);
  let activation = await store.getActivation(parentSessionId);
  if (atTurnId === undefined) {
    point = {
      messageCount: await store.countMessages(parentSessionId),
      eventSequence: await store.lastSequence(parentSessionId),
      turnOrdinal: turns.length,
    };
  } else {
    const turn = await requireTurn(services, parentSessionId, atTurnId);
    const next = turns.find((candidate) => candidate.ordinal === turn.ordinal + 1);
    if (next) {
      const nextPoint = await services.checkpoints.getRestorePoint(parentSessionId, next.turnId);
      point = {
        messageCount: nextPoint.messageCount,
        eventSequence: nextPoint.eventSequence,
        turnOrdinal: turn.ordinal,
      };
      // The state after the fork turn is the snapshot taken when the next turn began.
      const snapshot = (nextPoint.todoSnapshot ?? {}) as TodoSnapshot;
      todos = [...(snapshot.todos ?? [])];
      if (snapshot.activation) activation = [...snapshot.activation];
    } else {
      point = {
        messageCount: await store.countMessages(parentSessionId),
        eventSequence: await store.lastSequence(parentSessionId),
        turnOrdinal: turn.ordinal,
      };
    }
  }
  const child = await store.createSession({
    workspaceRoot: parent.workspaceRoot,
    title: parent.title ? `${parent.title} (fork)` : null,
    parentSessionId,
    forkedAtTurnId: atTurnId ?? turns.at(-1)?.turnId ?? null,
  });
  await store.copyHistory(parentSessionId, child.id, point);
  await store.setTodos(child.id, todos);
  await store.setActivation(child.id, activation);
  await services.checkpoints.forkSession(
    parentSessionId,
    child.id,
    atTurnId === undefined ? {} : { upToTurnId: atTurnId },
  );
  // The results and compaction stubs the child inherits name the parent's artifacts.
  await services.artifacts?.shareSession(parentSessionId, child.id);
  await store.appendEvent(child.id, { type: 'session.forked', parentSessionId, atTurnId: atTurnId ?? null });
  return child;
}
