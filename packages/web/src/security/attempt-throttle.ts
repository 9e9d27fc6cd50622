/**
 * Counts wrong tokens per client address in a sliding window. Past `limit` wrong attempts in
 * `windowMs`, the client is refused (even with the right token) until the window has room
 * again: guessing a 256-bit token is hopeless anyway, and this keeps a local attacker from
 * burning CPU on it.
 */
export class AttemptThrottle {
  readonly #failures = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(options: { limit?: number; windowMs?: number; now?: () => number } = {}) {
    this.#limit = options.limit ?? 10;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Milliseconds until `client` may try again; 0 when it may try now. */
  retryAfterMs(client: string): number {
    const recent = this.#recent(client);
    if (recent.length < this.#limit) return 0;
    return Math.max(1, recent[recent.length - this.#limit]! + this.#windowMs - this.#now());
  }

  recordFailure(client: string): void {
    const recent = this.#recent(client);
    recent.push(this.#now());
    this.#failures.set(client, recent);
    // Bound the table itself: many distinct addresses cannot grow it without limit.
    if (this.#failures.size > 10_000) this.#failures.delete(this.#failures.keys().next().value!);
  }

  #recent(client: string): number[] {
    const cutoff = this.#now() - this.#windowMs;
    const recent = (this.#failures.get(client) ?? []).filter((time) => time > cutoff);
    if (recent.length === 0) this.#failures.delete(client);
    return recent;
  }
}
