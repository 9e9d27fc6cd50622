import type { ModelToolCall } from '@clawsmith/providers';
import { toolCancelled } from '@clawsmith/tool-protocol';
import { TOOL_CALL_BOUNDS, excessCallResult } from './call-bounds.js';
import type { CallOutcome, CallRuntime } from './call-context.js';
import type { NewSessionEvent } from '../store/session-records.js';
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

async function runSerially(runtime: CallRuntime, prepared: readonly PreparedCall[]): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  // A call's tool.completed is written together with the next call's decisions and
  // tool.started (one statement instead of two). It waits only for synchronous checks: before a
  // hook runs or a person is asked, it is written on its own.
  let unwritten: NewSessionEvent[] = [];
  const flush = async (events: NewSessionEvent[]) => {
    await runtime.store.appendEvents(runtime.sessionId, [...unwritten, ...events]);
    unwritten = [];
  };
  for (const call of prepared) {
    let outcome: CallOutcome;
    if (call.kind === 'refused') {
      outcome = { call: call.call, result: call.result };
    } else if (runtime.signal.aborted) {
      outcome = { call: call.call, result: toolCancelled('The turn was cancelled before this call ran.') };
    } else {
      if (runtime.hooks.length > 0) await flush([]);
      const judgment = await judgeCall(runtime, call, unwritten);
      if (!judgment.allowed) {
        unwritten.push(...judgment.decisions);
        outcome = { call: call.call, result: judgment.result };
      } else {
        await flush([...judgment.decisions, startedEvent(runtime, call)]);
        outcome = { call: call.call, result: await executeCall(runtime, call) };
      }
    }
    unwritten.push(completedEvent(runtime, outcome));
    outcomes.push(outcome);
  }
  await flush([]);
  return outcomes;
}

async function runInParallel(runtime: CallRuntime, ready: readonly ReadyCall[]): Promise<CallOutcome[]> {
  // Judgments happen one by one in call order; their audit records and the allowed calls'
  // tool.started events are written together, still in call order, before any call runs.
  const outcomes: (CallOutcome | undefined)[] = [];
  const allowed: { index: number; call: ReadyCall }[] = [];
  const pending: NewSessionEvent[] = [];
  for (const [index, call] of ready.entries()) {
    const judgment = await judgeCall(runtime, call);
    pending.push(...judgment.decisions);
    if (judgment.allowed) {
      allowed.push({ index, call });
      pending.push(startedEvent(runtime, call));
    } else {
      outcomes[index] = { call: call.call, result: judgment.result };
    }
  }
  await runtime.store.appendEvents(runtime.sessionId, pending);
  const results = await Promise.all(allowed.map(({ call }) => executeCall(runtime, call)));
  allowed.forEach(({ index, call }, position) => {
    outcomes[index] = { call: call.call, result: results[position]! };
  });
  const ordered = outcomes as CallOutcome[];
  await runtime.store.appendEvents(
    runtime.sessionId,
    ordered.map((outcome) => completedEvent(runtime, outcome)),
  );
  return ordered;
}

/**
 * Runs the tool calls of one model response and returns exactly one outcome per call, in call
 * order, whatever happens. Calls past {@link TOOL_CALL_BOUNDS}`.callsPerMessage` do not run; each
 * is answered with `too_many_tool_calls`.
 */
export async function runToolCalls(runtime: CallRuntime, calls: readonly ModelToolCall[]): Promise<CallOutcome[]> {
  const messageCalls = new Set<string>();
  const admitted = calls.slice(0, TOOL_CALL_BOUNDS.callsPerMessage);
  const prepared = admitted.map((call) => prepareCall(runtime, call, messageCalls));
  const outcomes = isParallelBatch(prepared)
    ? await runInParallel(runtime, prepared)
    : await runSerially(runtime, prepared);
  if (calls.length === admitted.length) return outcomes;
  const result = excessCallResult();
  const excess = calls.slice(admitted.length).map((call) => ({ call, result }));
  await runtime.store.appendEvents(
    runtime.sessionId,
    excess.map((outcome) => completedEvent(runtime, outcome)),
  );
  return [...outcomes, ...excess];
}
