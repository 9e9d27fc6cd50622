import type { ModelToolCall } from '@clawsmith/providers';
import { toolCancelled } from '@clawsmith/tool-protocol';
import type { CallOutcome, CallRuntime } from './call-context.js';
import { executeCall, recordCompleted, recordStarted } from './execute-call.js';
import { judgeCall } from './judge-call.js';
import { prepareCall, type PreparedCall, type ReadyCall } from './prepare-call.js';

/**
 * A batch may run in parallel only when it has at least two calls and every one is ready
 * (known, active, not a duplicate, valid JSON and schema), concurrency-safe and of effective
 * risk read. Anything else runs serially, whole.
 */
export function isParallelBatch(prepared: readonly PreparedCall[]): prepared is readonly ReadyCall[] {
  return (
    prepared.length >= 2 &&
    prepared.every((call) => call.kind === 'ready' && call.entry.tool.concurrencySafe === true && call.entry.security.risk === 'read')
  );
}

async function runSerially(runtime: CallRuntime, prepared: readonly PreparedCall[]): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  for (const call of prepared) {
    if (call.kind === 'refused') {
      outcomes.push({ call: call.call, result: call.result });
    } else if (runtime.signal.aborted) {
      outcomes.push({ call: call.call, result: toolCancelled('The turn was cancelled before this call ran.') });
    } else {
      const judgment = await judgeCall(runtime, call);
      if (!judgment.allowed) {
        outcomes.push({ call: call.call, result: judgment.result });
      } else {
        await recordStarted(runtime, call);
        outcomes.push({ call: call.call, result: await executeCall(runtime, call) });
      }
    }
    await recordCompleted(runtime, outcomes[outcomes.length - 1]!);
  }
  return outcomes;
}

async function runInParallel(runtime: CallRuntime, ready: readonly ReadyCall[]): Promise<CallOutcome[]> {
  // Judgments and their audit records happen one by one in call order; only the allowed calls
  // then run together.
  const outcomes: (CallOutcome | undefined)[] = [];
  const allowed: { index: number; call: ReadyCall }[] = [];
  for (const [index, call] of ready.entries()) {
    const judgment = await judgeCall(runtime, call);
    if (judgment.allowed) allowed.push({ index, call });
    else outcomes[index] = { call: call.call, result: judgment.result };
  }
  for (const { call } of allowed) await recordStarted(runtime, call);
  const results = await Promise.all(allowed.map(({ call }) => executeCall(runtime, call)));
  allowed.forEach(({ index, call }, position) => {
    outcomes[index] = { call: call.call, result: results[position]! };
  });
  const ordered = outcomes as CallOutcome[];
  for (const outcome of ordered) await recordCompleted(runtime, outcome);
  return ordered;
}

/**
 * Runs the tool calls of one model response and returns exactly one outcome per call, in call
 * order, whatever happens.
 */
export async function runToolCalls(runtime: CallRuntime, calls: readonly ModelToolCall[]): Promise<CallOutcome[]> {
  const prepared = calls.map((call) => prepareCall(runtime, call));
  return isParallelBatch(prepared) ? runInParallel(runtime, prepared) : runSerially(runtime, prepared);
}
