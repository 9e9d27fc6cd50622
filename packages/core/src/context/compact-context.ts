import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { collectModelResponse, type ModelMessage, type ModelUsage } from '@clawsmith/providers';
import type { ModelToolSchema } from '@clawsmith/tool-protocol';
import type { CoreServices } from '../core-services.js';
import { applyCompaction, buildModelView, type CompactionState } from './context-view.js';
import { planPruning } from './prune-plan.js';
import { SUMMARY_PROMPT, summaryRequestText } from './summary-prompt.js';

/** Why a compaction runs. */
export type CompactionReason = 'threshold' | 'overflow' | 'manual';

/** What a compaction needs to know about the request it makes room for. */
export interface CompactionInput {
  readonly sessionId: string;
  readonly turnId: string | undefined;
  readonly history: readonly ModelMessage[];
  readonly state: CompactionState;
  readonly system: string | undefined;
  readonly tools: readonly ModelToolSchema[];
  readonly reason: CompactionReason;
  readonly signal?: AbortSignal;
  /** Added to the summary request (a PreCompact hook's `additionalContext`). */
  readonly instructions?: string;
}

/** What a compaction did: the new state, and what it took out. */
export interface CompactionOutcome {
  readonly state: CompactionState;
  /** Tool results this compaction turned into stubs. */
  readonly prunedToolResults: number;
  /** Whether the older messages were replaced by a summary. */
  readonly summarized: boolean;
  /** Tokens the summary request used. */
  readonly summaryUsage?: ModelUsage;
}

/** The messages kept verbatim after a summary, at least. */
const KEEP_LATEST_MESSAGES = 6;

/** The token limits compaction works to: compact above `threshold`, bring the view down to `target`. */
export function compactionLimits(core: CoreServices): { threshold: number; target: number; usable: number } {
  const usable = core.context.window.tokens - core.context.window.outputReserve;
  return { threshold: Math.floor(usable * 0.8), target: Math.floor(usable * 0.5), usable };
}

/** Where the verbatim tail starts: at least {@link KEEP_LATEST_MESSAGES} back, never on a tool result. */
function tailStart(history: readonly ModelMessage[], from: number): number {
  let index = Math.max(from, history.length - KEEP_LATEST_MESSAGES);
  while (index > from && history[index]?.role === 'tool') index -= 1;
  return index;
}

/** Asks the model, without tools, to summarise `messages`; returns the summary text and the request's usage. */
async function summarise(
  core: CoreServices,
  messages: readonly ModelMessage[],
  todos: string,
  signal: AbortSignal | undefined,
  instructions: string | undefined,
): Promise<{ text: string; usage: ModelUsage | undefined }> {
  const response = await collectModelResponse(
    core.provider.stream({
      requestId: randomUUID(),
      system: SUMMARY_PROMPT,
      messages: [...messages, { role: 'user', text: summaryRequestText(todos, instructions) }],
      tools: [],
      ...(signal ? { signal } : {}),
    }),
  );
  return { text: response.text.trim(), usage: response.usage };
}

/**
 * Compacts the model's view of a session, never its stored messages or events: first old tool
 * results become stubs (their full text put in the artifact store when it is not there yet),
 * then, when that is not enough, the older messages are summarised by the model. Writes one
 * `context.compacted` event and returns what it did; returns `undefined` when nothing could be
 * taken out.
 */
export async function compactContext(
  core: CoreServices,
  input: CompactionInput,
): Promise<CompactionOutcome | undefined> {
  const started = performance.now();
  let modelMs = 0;
  const { history, state } = input;
  const { estimator } = core.context;
  const { threshold, target } = compactionLimits(core);
  const shape = (messages: readonly ModelMessage[]) => ({ system: input.system, tools: input.tools, messages });
  const before = buildModelView(history, state);
  const tokensBefore = estimator.estimate(shape(before));
  const bytesBefore = estimator.bytes(shape(before));
  // On demand: every older result goes; after a refusal: at most 60 % of what was refused.
  const goal =
    input.reason === 'manual' ? 0 : input.reason === 'overflow' ? Math.min(target, tokensBefore * 0.6) : target;
  const targetBytes = Math.max(0, bytesBefore - (tokensBefore - goal) * estimator.bytesPerToken);
  const plan = planPruning(history, state, bytesBefore, targetBytes, (message) =>
    estimator.bytes({ tools: [], messages: [message] }),
  );
  const artifacts: { toolCallId: string; artifactId: string }[] = [];
  for (const index of plan.newlyPruned) {
    const message = history[index]!;
    if (message.role !== 'tool' || message.toolResult.artifact || state.artifacts.has(message.toolCallId)) continue;
    if (!core.artifacts) continue;
    const reference = await core.artifacts.write(message.content, {
      sessionId: input.sessionId,
      toolCallId: message.toolCallId,
    });
    artifacts.push({ toolCallId: message.toolCallId, artifactId: reference.id });
  }
  let next = applyCompaction(state, { prunedThroughMessage: plan.prunedThroughMessage, artifacts });
  let tokensAfter = estimator.estimate(shape(buildModelView(history, next)));
  let summary: { summarizedThroughMessage: number; summary: string } | undefined;
  let summaryUsage: ModelUsage | undefined;
  const stillTooBig = input.reason === 'threshold' ? tokensAfter > threshold : tokensAfter > target;
  const summaryFrom = state.summarizedThroughMessage;
  const cut = tailStart(history, summaryFrom);
  if (stillTooBig && cut > summaryFrom) {
    const older = buildModelView(history.slice(0, cut), next);
    const todos = await core.store.getTodos(input.sessionId);
    const asked = performance.now();
    const answer = await summarise(
      core,
      older,
      todos.map((todo) => `- [${todo.status}] ${todo.content}`).join('\n'),
      input.signal,
      input.instructions,
    );
    modelMs = performance.now() - asked;
    summaryUsage = answer.usage;
    const text = answer.text;
    if (text !== '') {
      summary = { summarizedThroughMessage: cut, summary: text };
      next = applyCompaction(next, { prunedThroughMessage: next.prunedThroughMessage, artifacts: [], ...summary });
      tokensAfter = estimator.estimate(shape(buildModelView(history, next)));
    }
  }
  // Nothing taken out (no tool result left to stub, nothing old enough to summarise): no event.
  if (plan.newlyPruned.length === 0 && !summary) return undefined;
  await core.store.appendEvent(input.sessionId, {
    type: 'context.compacted',
    ...(input.turnId ? { turnId: input.turnId } : {}),
    reason: input.reason,
    prunedThroughMessage: next.prunedThroughMessage,
    prunedToolResults: plan.newlyPruned.length,
    artifacts,
    ...(summary ?? {}),
    contextWindow: core.context.window.tokens,
    tokensBefore,
    tokensAfter,
    ...(summaryUsage ? { summaryUsage } : {}),
    durationMs: Math.round((performance.now() - started - modelMs) * 100) / 100,
  });
  return {
    state: next,
    prunedToolResults: plan.newlyPruned.length,
    summarized: summary !== undefined,
    ...(summaryUsage ? { summaryUsage } : {}),
  };
}
