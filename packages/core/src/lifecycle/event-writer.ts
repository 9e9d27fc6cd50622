import type { NewSessionEvent, PendingApproval } from '../store/session-records.js';
import type { SessionStore } from '../store/session-store.js';

/**
 * The one owner of event order for the tool calls of a model response. Events reach the log in
 * the order they are handed over here, whichever of `defer` and `writeNow` hands them over.
 *
 * The rule: **a completion waits only for synchronous checks.** A call's `tool.completed` (and a
 * refusal's decisions) may be deferred to share the next statement with the next call's
 * decisions and `tool.started`, because nothing slow runs in between. Before anything that waits
 * on the world (a hook, a person asked for approval) everything deferred is written first, and
 * `tool.started` is written before its tool runs. The completions left at the end of the batch
 * are handed to the caller ({@link takeDeferred}), which writes them with the calls' tool
 * messages in one transaction (`recordToolResults`).
 */
export class CallEventWriter {
  readonly #store: SessionStore;
  readonly #sessionId: string;
  #deferred: NewSessionEvent[] = [];

  constructor(store: SessionStore, sessionId: string) {
    this.#store = store;
    this.#sessionId = sessionId;
  }

  /** Keeps events to be written, in this order, with the next `writeNow` or `flush`. */
  defer(events: readonly NewSessionEvent[]): void {
    for (const event of events) this.#deferred.push(event);
  }

  /** Writes the deferred events, then `events`, in one statement. */
  async writeNow(events: readonly NewSessionEvent[] = []): Promise<void> {
    const batch = this.#deferred.concat(events);
    this.#deferred = [];
    await this.#store.appendEvents(this.#sessionId, batch);
  }

  /** Writes the deferred events, then `events`, with `approval`'s row, in one transaction. */
  async writeWithApproval(approval: PendingApproval, events: readonly NewSessionEvent[]): Promise<void> {
    const batch = this.#deferred.concat(events);
    this.#deferred = [];
    await this.#store.recordStep(this.#sessionId, { turnId: approval.turnId, events: batch, approval });
  }

  /** Writes the deferred events (nothing when none are deferred). */
  flush(): Promise<void> {
    return this.writeNow();
  }

  /** The deferred events, in order, for the caller to write (no longer held here). */
  takeDeferred(): NewSessionEvent[] {
    const deferred = this.#deferred;
    this.#deferred = [];
    return deferred;
  }
}
