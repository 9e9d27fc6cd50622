import type { ModelMessage } from '@clawsmith/providers';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import type { CoreServices } from '../core-services.js';
import { TurnContextView } from './turn-context-view.js';

/** What an on-demand compaction did. */
export interface CompactionResult {
  /** False when there was nothing to take out (no older tool results, nothing to summarise). */
  readonly compacted: boolean;
  /** Estimated tokens of the next request's messages and tools, before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Tool results turned into stubs that name their artifact. */
  readonly prunedToolResults: number;
  /** Whether the older messages were replaced by a model-written summary. */
  readonly summarized: boolean;
  /** Why a PreCompact hook kept the view as it was, when one did (nothing was compacted). */
  readonly blocked?: string;
}

function requestShape(services: CoreServices, activation: Parameters<CoreServices['requestTools']>[0]) {
  return { system: services.systemPrompt, tools: services.requestTools(activation).tools };
}

/** The messages the next request of `sessionId` is built from, compactions applied (the stored messages are unchanged). */
export async function modelView(services: CoreServices, sessionId: string): Promise<ModelMessage[]> {
  await services.store.requireSession(sessionId);
  const history = await services.store.listMessages(sessionId);
  const view = await TurnContextView.open(services, sessionId, undefined);
  const shape = requestShape(services, await services.activationFor(sessionId));
  // A view at most at the threshold is returned as it is; compaction only happens in a turn or on demand.
  return view.peek(history, shape);
}

/** Compacts the model's view of a session now (`/compact`), between turns. */
export async function compactSession(services: CoreServices, sessionId: string): Promise<CompactionResult> {
  if (services.runningSessions.has(sessionId))
    throw new ClawsmithError('turn_in_progress', 'A turn is running in this session; compact it after the turn ends.');
  const history = await services.store.listMessages(sessionId);
  const session = await services.store.requireSession(sessionId);
  const turnHooks = services.startedSessions.get(sessionId)?.hooks ?? services.turnHooks;
  const view = await TurnContextView.open(services, sessionId, undefined, {
    workspaceRoot: session.workspaceRoot,
    ...(turnHooks ? { turnHooks } : {}),
  });
  const shape = requestShape(services, await services.activationFor(sessionId));
  const before = services.context.estimator.estimate({ ...shape, messages: view.peek(history, shape) });
  const after = await view.prepare(history, shape, 'manual');
  return {
    compacted: view.compacted,
    tokensBefore: before,
    tokensAfter: after.estimatedInputTokens,
    prunedToolResults: view.compactions.reduce((sum, done) => sum + done.prunedToolResults, 0),
    summarized: view.compactions.some((done) => done.summarized),
    ...(view.blocked !== undefined ? { blocked: view.blocked } : {}),
  };
}
