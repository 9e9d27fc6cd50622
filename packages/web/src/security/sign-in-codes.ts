import { createHash } from 'node:crypto';
import { createSecret } from './access-token.js';

/** How long an unused sign-in code stays valid by default: 10 minutes. */
export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;

/** What trading a code for a session found: it was live (and is now spent), or why not. */
export type SignInCodeOutcome = 'accepted' | 'used' | 'expired' | 'unknown';

/** Options of {@link SignInCodes}. */
export interface SignInCodesOptions {
  /** How long an unused code is valid; default {@link SIGN_IN_CODE_TTL_MS}. */
  readonly ttlMs?: number;
  /** Most unused codes at once; the oldest goes (as if expired) when more are created. Default 32. */
  readonly maxLive?: number;
  /** Most used or expired codes remembered, to answer them apart from wrong ones. Default 256. */
  readonly maxRemembered?: number;
  readonly now?: () => number;
}

/**
 * Single-use sign-in codes (the `#token=` of a sign-in URL). Only SHA-256 digests are kept, so a
 * lookup's timing can reveal at most a prefix of a digest, never of a code. Spending a code is
 * the one way to use it; a used or expired code is remembered (bounded) so that its second use
 * is told apart from a guess and the owner learns to ask for a new URL.
 */
export class SignInCodes {
  /** digest -> expiry time, oldest first. */
  readonly #live = new Map<string, number>();
  /** digest -> why it no longer works, oldest first. */
  readonly #gone = new Map<string, 'used' | 'expired'>();
  readonly #ttlMs: number;
  readonly #maxLive: number;
  readonly #maxRemembered: number;
  readonly #now: () => number;

  constructor(options: SignInCodesOptions = {}) {
    this.#ttlMs = options.ttlMs ?? SIGN_IN_CODE_TTL_MS;
    if (!Number.isSafeInteger(this.#ttlMs) || this.#ttlMs <= 0)
      throw new RangeError(`signInCodeTtlMs must be a positive whole number of milliseconds, not ${this.#ttlMs}.`);
    this.#maxLive = options.maxLive ?? 32;
    this.#maxRemembered = options.maxRemembered ?? 256;
    this.#now = options.now ?? Date.now;
  }

  /** How long a new code is valid, in milliseconds. */
  get ttlMs(): number {
    return this.#ttlMs;
  }

  /** A new code, valid once within the time to live. */
  create(): string {
    this.#expire();
    const code = createSecret();
    this.#live.set(digest(code), this.#now() + this.#ttlMs);
    while (this.#live.size > this.#maxLive) {
      const oldest = this.#live.keys().next().value!;
      this.#live.delete(oldest);
      this.#remember(oldest, 'expired');
    }
    return code;
  }

  /** Spends `code` when it is live; otherwise says whether it was used, expired or never issued. */
  spend(code: string): SignInCodeOutcome {
    this.#expire();
    const key = digest(code);
    if (this.#live.delete(key)) {
      this.#remember(key, 'used');
      return 'accepted';
    }
    return this.#gone.get(key) ?? 'unknown';
  }

  #expire(): void {
    const now = this.#now();
    // Every code lives equally long, so the map is in expiry order.
    for (const [key, expiresAt] of this.#live) {
      if (expiresAt > now) break;
      this.#live.delete(key);
      this.#remember(key, 'expired');
    }
  }

  #remember(key: string, reason: 'used' | 'expired'): void {
    this.#gone.set(key, reason);
    while (this.#gone.size > this.#maxRemembered) this.#gone.delete(this.#gone.keys().next().value!);
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}
