import { canonicalJson } from '@clawsmith/tool-protocol';
import type { CallJudgment } from '../calls/judge-call.js';

/** How many judgments `decide()` keeps for a `call()` that may follow; the oldest go first. */
const JUDGMENTS_KEPT = 64;
/**
 * How long a judgment waits for its call. A framework asks `decide()`, may put the call to a
 * person, then runs it; past this the call is judged again (its hooks run again).
 */
const JUDGMENT_LIFETIME_MS = 10 * 60_000;

interface Kept {
  readonly judgment: CallJudgment;
  readonly at: number;
}

/**
 * The judgments `decide()` made, each taken once by the `call()` it was made for (the same tool
 * call id, or failing one the same tool and input), so
 * a call that a framework first decides and then runs meets its hooks once (a hook with side
 * effects, a notifier or a counter, runs once per call).
 */
export class DecidedCalls {
  readonly #kept = new Map<string, Kept[]>();
  #count = 0;

  /** The key of a judgment: the tool call's id when the framework named it, else the tool and input. */
  static keyOf(toolName: string, input: unknown, toolCallId?: string): string {
    const call = `${toolName}\u0000${canonicalJson(input)}`;
    return toolCallId === undefined ? call : `${call}\u0000${toolCallId}`;
  }

  /**
   * Keeps a judgment for `key`. With `latestOnly` (a judgment made for a named tool call) it
   * replaces any kept before for that key: a call decided again (after a framework resumed it) is
   * run as last judged.
   */
  keep(key: string, judgment: CallJudgment, latestOnly = false): void {
    if (latestOnly) this.#forget(key);
    if (this.#count >= JUDGMENTS_KEPT) this.#dropOldest();
    const queue = this.#kept.get(key) ?? [];
    queue.push({ judgment, at: Date.now() });
    this.#kept.set(key, queue);
    this.#count += 1;
  }

  /** The oldest unexpired judgment kept for `key`, removed; undefined when there is none. */
  take(key: string): CallJudgment | undefined {
    const queue = this.#kept.get(key);
    while (queue && queue.length > 0) {
      const kept = queue.shift()!;
      this.#count -= 1;
      if (queue.length === 0) this.#kept.delete(key);
      if (Date.now() - kept.at <= JUDGMENT_LIFETIME_MS) return kept.judgment;
    }
    return undefined;
  }

  #forget(key: string): void {
    this.#count -= this.#kept.get(key)?.length ?? 0;
    this.#kept.delete(key);
  }

  #dropOldest(): void {
    let oldest: { key: string; at: number } | undefined;
    for (const [key, queue] of this.#kept) {
      const at = queue[0]!.at;
      if (!oldest || at < oldest.at) oldest = { key, at };
    }
    if (!oldest) return;
    const queue = this.#kept.get(oldest.key)!;
    queue.shift();
    this.#count -= 1;
    if (queue.length === 0) this.#kept.delete(oldest.key);
  }
}
