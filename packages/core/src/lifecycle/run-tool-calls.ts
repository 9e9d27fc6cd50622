import type { ModelToolCall } from '@clawsmith/providers';
import type { NewSessionEvent } from '../store/session-records.js';
import { toolCancelled } from '@clawsmith/tool-protocol';
import { TOOL_CALL_BOUNDS, excessCallResult } from './call-bounds.js';
import type { CallOutcome, TurnContext } from './turn-context.js';
import { CallEventWriter } from './event-writer.js';
import { completedEvent, executeCall, startedEvent } from './execute-call.js';
import { judgeCall } from './judge-call.js';
import { prepareCall, type PreparedCall, type ReadyCall } from './prepare-call.js';

/**
 * A batch may run in parallel only when it has at least two calls and every one is ready
 * (known, active, not a duplicate in the sense of {@link prepareCall}, valid JSON and schema), concurrency-safe and of effective
 * risk read. Anything else runs serially, whole.
 */
export function isParallelBatch(prepared: readonly PreparedCall[]): prepared is readonly ReadyCall[] {
  return (
    prepared.length >= 2 &&
    prepared.every(
      (call) =>
        call.kind === 'ready' && call.entry.tool.concurrencySafe === true && call.entry.security.risk === 'read',
    )
  );
}

async function runSerially(
  turn: TurnContext,
  prepared: readonly PreparedCall[],
  events: CallEventWriter,
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  for (const call of prepared) {
    let outcome: CallOutcome;
    if (call.kind === 'refused') {
      outcome = { call: call.call, result: call.result };
    } else if (turn.signal.aborted) {
      outcome = { call: call.call, result: toolCancelled('The turn was cancelled before this call ran.') };
    } else {
      const judgment = await judgeCall(turn, call, events);
      if (!judgment.allowed) {
        events.defer(judgment.decisions);
        outcome = { call: call.call, result: judgment.result };
      } else {
        await events.writeNow([...judgment.decisions, startedEvent(turn, judgment.ready)]);
        outcome = { call: call.call, result: await executeCall(turn, judgment.ready, judgment.contexts) };
      }
    }
    // Written with the next call's decisions and tool.started, or the batch's tool messages.
    events.defer([completedEvent(turn, outcome)]);
    outcomes.push(outcome);
  }
  return outcomes;
}

async function runInParallel(
  turn: TurnContext,
  ready: readonly ReadyCall[],
  events: CallEventWriter,
): Promise<CallOutcome[]> {
  // Judgments happen one by one in call order; their audit records and the allowed calls'
  // tool.started events are written, still in call order, before any call runs.
  const outcomes: (CallOutcome | undefined)[] = [];
  const allowed: { index: number; call: ReadyCall; contexts: readonly string[] }[] = [];
  for (const [index, call] of ready.entries()) {
    const judgment = await judgeCall(turn, call, events);
    events.defer(judgment.decisions);
    if (judgment.allowed) {
      allowed.push({ index, call: judgment.ready, contexts: judgment.contexts });
      events.defer([startedEvent(turn, judgment.ready)]);
    } else {
      outcomes[index] = { call: call.call, result: judgment.result };
    }
  }
  await events.flush();
  const results = await Promise.all(allowed.map(({ call, contexts }) => executeCall(turn, call, contexts)));
  allowed.forEach(({ index, call }, position) => {
    outcomes[index] = { call: call.call, result: results[position]! };
  });
  const ordered = outcomes as CallOutcome[];
  events.defer(ordered.map((outcome) => completedEvent(turn, outcome)));
  return ordered;
}

/** What {@link runToolCalls} hands back. */
export interface ToolCallsRun {
  /** Exactly one outcome per call, in call order. */
  readonly outcomes: CallOutcome[];
  /**
   * The batch's last events (its `tool.completed` events not written yet), for the caller to
   * write at once, in this order, with the calls' tool messages (`recordToolResults`): nothing
   * slow may run before they are written.
   */
  readonly unwrittenEvents: readonly NewSessionEvent[];
}

/**
 * Runs the tool calls of one model response and returns exactly one outcome per call, in call
 * order, whatever happens. Calls past {@link TOOL_CALL_BOUNDS}`.callsPerMessage` do not run; each
 * is answered with `too_many_tool_calls`.
 */
export async function runToolCalls(turn: TurnContext, calls: readonly ModelToolCall[]): Promise<ToolCallsRun> {
  const messageCalls = new Set<string>();
  const admitted = calls.slice(0, TOOL_CALL_BOUNDS.callsPerMessage);
  const prepared = admitted.map((call) => prepareCall(turn, call, messageCalls));
  const events = new CallEventWriter(turn.core.store, turn.session.id);
  const outcomes = isParallelBatch(prepared)
    ? await runInParallel(turn, prepared, events)
    : await runSerially(turn, prepared, events);
  const result = excessCallResult();
  const excess = calls.slice(admitted.length).map((call) => ({ call, result }));
  events.defer(excess.map((outcome) => completedEvent(turn, outcome)));
  return { outcomes: [...outcomes, ...excess], unwrittenEvents: events.takeDeferred() };
}
