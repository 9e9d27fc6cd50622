import type { ModelMessage, ModelUsage } from '@clawsmith/providers';
import type { ModelToolSchema } from '@clawsmith/tool-protocol';
import type { TurnUsage } from '../agent-core-options.js';
import type { CoreServices } from '../core-services.js';
import { compactContext, compactionLimits, type CompactionOutcome, type CompactionReason } from './compact-context.js';
import { buildModelView, compactionStateOf, type CompactionState } from './context-view.js';
import type { TurnHooks } from '../turn-hooks.js';

/** The PreCompact hooks a view asks before it compacts, and the workspace they run for. */
export interface CompactionHooks {
  readonly workspaceRoot: string;
  readonly turnHooks?: TurnHooks;
}

/** A request ready to send: the model's view and its estimated size. */
export interface PreparedRequest {
  readonly messages: ModelMessage[];
  readonly estimatedInputTokens: number;
  readonly bytes: number;
}

/** The failure of a turn stopped by a token budget. */
export interface BudgetFailure {
  readonly code: 'token_budget_exceeded';
  readonly message: string;
  readonly retryable: false;
}

const ZERO: TurnUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** Adds a request's usage to a sum. */
export function addUsage(sum: TurnUsage, usage: ModelUsage | TurnUsage | undefined): TurnUsage {
  if (!usage) return sum;
  return {
    inputTokens: sum.inputTokens + usage.inputTokens,
    outputTokens: sum.outputTokens + usage.outputTokens,
    cacheReadTokens: sum.cacheReadTokens + (usage.cacheReadTokens ?? 0),
    cacheWriteTokens: sum.cacheWriteTokens + (usage.cacheWriteTokens ?? 0),
  };
}

/**
 * One session's view of its conversation for the model during a turn (or an on-demand
 * compaction): rebuilt from the stored messages and the `context.compacted` events, compacted
 * before a request that would pass the threshold, and the turn's token usage and budgets.
 */
export class TurnContextView {
  #state: CompactionState;
  #usage: TurnUsage = ZERO;
  #compactions: Omit<CompactionOutcome, 'state'>[] = [];
  #blocked: string | undefined;

  private constructor(
    private readonly core: CoreServices,
    private readonly sessionId: string,
    private readonly turnId: string | undefined,
    state: CompactionState,
    private readonly sessionTokensBefore: number,
    private readonly hooks: CompactionHooks | undefined,
  ) {
    this.#state = state;
  }

  /** Reads the session's compactions (and, with a session budget, the tokens its earlier turns used). */
  static async open(
    core: CoreServices,
    sessionId: string,
    turnId: string | undefined,
    hooks?: CompactionHooks,
  ): Promise<TurnContextView> {
    const compactions = await core.store.listEventsOfType(sessionId, 'context.compacted');
    let before = 0;
    if (core.context.maxSessionTokens !== undefined) {
      for (const event of await core.store.listEventsOfType(sessionId, 'turn.completed'))
        before += (event.usage?.inputTokens ?? 0) + (event.usage?.outputTokens ?? 0);
    }
    return new TurnContextView(core, sessionId, turnId, compactionStateOf(compactions), before, hooks);
  }

  /** Whether this view compacted anything. */
  get compacted(): boolean {
    return this.#compactions.length > 0;
  }

  /** Why a PreCompact hook kept the view uncompacted, when one did. */
  get blocked(): string | undefined {
    return this.#blocked;
  }

  /** What this view's compactions did, in order. */
  get compactions(): readonly Omit<CompactionOutcome, 'state'>[] {
    return this.#compactions;
  }

  /** The view as it stands, without compacting. */
  peek(
    history: readonly ModelMessage[],
    _request: { system: string | undefined; tools: readonly ModelToolSchema[] },
  ): ModelMessage[] {
    return buildModelView(history, this.#state);
  }

  /** Tokens the turn's requests used so far. */
  get usage(): TurnUsage {
    return this.#usage;
  }

  /**
   * The view for the next request. Compacts first when it would pass the threshold (or,
   * with `reason`, whatever the size: `overflow` after a refusal, `manual` on demand).
   */
  async prepare(
    history: readonly ModelMessage[],
    request: { system: string | undefined; tools: readonly ModelToolSchema[]; signal?: AbortSignal },
    reason?: CompactionReason,
  ): Promise<PreparedRequest> {
    const { estimator } = this.core.context;
    let messages = buildModelView(history, this.#state);
    let estimate = estimator.estimate({ ...request, messages });
    const compacting = this.hooks?.turnHooks?.compacting;
    const verdict =
      (reason !== undefined || estimate > compactionLimits(this.core).threshold) && compacting
        ? await compacting({
            sessionId: this.sessionId,
            workspaceRoot: this.hooks!.workspaceRoot,
            ...(this.turnId !== undefined ? { turnId: this.turnId } : {}),
            trigger: reason === 'manual' ? 'manual' : 'auto',
          })
        : {};
    if (verdict.block !== undefined) {
      // Fail closed: nothing is summarised or stubbed that the hook did not let through.
      this.#blocked = verdict.block;
      this.core.hookNotice?.(`compaction was blocked by a PreCompact hook: ${verdict.block}`);
    } else if (reason !== undefined || estimate > compactionLimits(this.core).threshold) {
      const next = await compactContext(this.core, {
        ...(verdict.instructions ? { instructions: verdict.instructions } : {}),
        sessionId: this.sessionId,
        turnId: this.turnId,
        history,
        state: this.#state,
        system: request.system,
        tools: request.tools,
        reason: reason ?? 'threshold',
        ...(request.signal ? { signal: request.signal } : {}),
      });
      if (next) {
        const { state, ...done } = next;
        this.#compactions.push(done);
        // The summary request is a model request of the turn: its tokens count toward usage and budgets.
        this.#usage = addUsage(this.#usage, done.summaryUsage);
        this.#state = state;
        messages = buildModelView(history, state);
        estimate = estimator.estimate({ ...request, messages });
      }
    }
    return { messages, estimatedInputTokens: estimate, bytes: estimator.bytes({ ...request, messages }) };
  }

  /** The budget the next request of `estimate` input tokens would pass, if any. */
  budgetFailure(estimate: number): BudgetFailure | undefined {
    const { maxTurnTokens, maxSessionTokens } = this.core.context;
    const turnUsed = this.#usage.inputTokens + this.#usage.outputTokens;
    if (maxTurnTokens !== undefined && turnUsed + estimate > maxTurnTokens)
      return budgetFailure('turn', maxTurnTokens, turnUsed, estimate, '--max-turn-tokens');
    const sessionUsed = this.sessionTokensBefore + turnUsed;
    if (maxSessionTokens !== undefined && sessionUsed + estimate > maxSessionTokens)
      return budgetFailure('session', maxSessionTokens, sessionUsed, estimate, '--max-session-tokens');
    return undefined;
  }

  /** Counts a request's usage and calibrates the estimator with it. */
  record(usage: ModelUsage | undefined, sent: PreparedRequest): void {
    if (!usage) return;
    this.#usage = addUsage(this.#usage, usage);
    this.core.context.estimator.calibrate(sent.bytes, sent.messages.length, usage.inputTokens);
  }

  /** After the provider refused `sent` as longer than the window: count more per byte next time. */
  learnOverflow(sent: PreparedRequest): void {
    this.core.context.estimator.learnOverflow(sent.estimatedInputTokens, this.core.context.window.tokens);
  }
}

function budgetFailure(
  scope: 'turn' | 'session',
  budget: number,
  used: number,
  estimate: number,
  flag: string,
): BudgetFailure {
  const format = (value: number) => value.toLocaleString('en-US');
  return {
    code: 'token_budget_exceeded',
    message: `The ${scope} token budget of ${format(budget)} would be passed: ${format(used)} used, the next request is about ${format(estimate)} input tokens. The request was not sent. Raise ${flag}, or go on in a new turn${scope === 'session' ? ' of a new session' : ''}.`,
    retryable: false,
  };
}
