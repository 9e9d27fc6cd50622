import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh secret: 32 random bytes, base64url (43 characters). */
export function createSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether `candidate` equals `secret`, in time that does not depend on where they differ: both
 * are hashed to 32 bytes first, so neither length nor content leaks through timing.
 */
export function secretsMatch(candidate: string, secret: string): boolean {
  const left = createHash('sha256').update(candidate, 'utf8').digest();
  const right = createHash('sha256').update(secret, 'utf8').digest();
  return timingSafeEqual(left, right);
}

/**
 * The browser sessions a token was exchanged for. Only SHA-256 digests of the cookie values are
 * kept, so a lookup's timing can reveal at most a prefix of a digest, never of a cookie.
 */
export class CookieSessions {
  readonly #digests = new Set<string>();
  readonly #limit: number;

  constructor(limit = 64) {
    this.#limit = limit;
  }

  /** Issues a new cookie value; the oldest session goes when more than `limit` exist. */
  issue(): string {
    const value = createSecret();
    this.#digests.add(digest(value));
    if (this.#digests.size > this.#limit) this.#digests.delete(this.#digests.values().next().value!);
    return value;
  }

  has(value: string): boolean {
    return this.#digests.has(digest(value));
  }

  revoke(value: string): void {
    this.#digests.delete(digest(value));
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}
