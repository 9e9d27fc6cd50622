import type { ModelMessage } from '@clawsmith/providers';
import { resultMetadata } from '@clawsmith/tool-protocol';
import type { TurnResult, TurnStatus } from './agent-core-options.js';
import type { ToolCallsRun } from './lifecycle/run-tool-calls.js';
import type { TurnContext } from './lifecycle/turn-context.js';

/**
 * The tool messages of a batch's outcomes, in call order, appended to the store and to `history`,
 * with the batch's unwritten events and the session's activation (`search_tools` may have
 * changed it), in one transaction.
 */
export async function recordToolResults(
  turn: TurnContext,
  history: ModelMessage[],
  { outcomes, unwrittenEvents }: ToolCallsRun,
): Promise<void> {
  const messages: ModelMessage[] = outcomes.map(({ call, result }) => ({
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    toolResult: resultMetadata(result),
  }));
  await turn.core.store.recordStep(turn.session.id, {
    turnId: turn.turnId,
    events: unwrittenEvents,
    messages,
    activation: turn.activation.activeTools(),
  });
  history.push(...messages);
}

/**
 * Closes a turn the same way for a model turn and a direct call: completes its restore point
 * (the manifest of changed files), then in one transaction writes `turn.completed`, marks the
 * turn and gives up the session's claim, so the session is free to the next turn as soon as the
 * turn reads ended. Returns the changed files with their line statistics. Throws
 * `turn_claim_lost`, writing nothing, when another process took the session's claim over.
 */
export async function closeTurn(
  turn: TurnContext,
  outcome: { status: TurnStatus; steps: number; error?: TurnResult['error']; usage?: TurnResult['usage'] },
): Promise<TurnResult['changedFiles']> {
  const { store } = turn.core;
  // The taker's recovery completed the restore point and closed the turn: nothing is written here.
  if (turn.held.lost.aborted) throw turn.held.lost.reason;
  const manifest = await turn.checkpoint.complete();
  const changedFiles = manifest.files.map((file) => ({
    path: file.path,
    change: file.change,
    linesAdded: file.linesAdded ?? 0,
    linesRemoved: file.linesRemoved ?? 0,
  }));
  const event = {
    type: 'turn.completed' as const,
    turnId: turn.turnId,
    status: outcome.status,
    steps: outcome.steps,
    restorePointId: turn.checkpoint.restorePointId,
    manifest: {
      files: changedFiles.length,
      linesAdded: manifest.totals.linesAdded,
      linesRemoved: manifest.totals.linesRemoved,
      paths: changedFiles.map((file) => file.path),
    },
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.usage ? { usage: outcome.usage } : {}),
  };
  await turn.held.finish(() => store.endTurn(turn.session.id, turn.turnId, outcome.status, turn.core.owner, event));
  return changedFiles;
}
