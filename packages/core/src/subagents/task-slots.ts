import { ClawsmithError } from '@clawsmith/tool-protocol';

/**
 * At most `limit` holders per key (a parent session); later callers wait in order. A waiter whose
 * signal aborts leaves the queue with a `cancelled` error.
 */
export class TaskSlots {
  readonly #limit: number;
  readonly #held = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  async acquire(key: string, signal: AbortSignal): Promise<() => void> {
    if ((this.#held.get(key) ?? 0) >= this.#limit) {
      await new Promise<void>((resolve, reject) => {
        const queue = this.#waiting.get(key) ?? [];
        this.#waiting.set(key, queue);
        const onAbort = () => {
          const index = queue.indexOf(wake);
          if (index >= 0) queue.splice(index, 1);
          reject(new ClawsmithError('cancelled', 'The delegated task was cancelled while it waited for a slot.'));
        };
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(wake);
      });
    } else {
      this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next waiter, so the count never dips below the limit.
      const next = this.#waiting.get(key)?.shift();
      if (next) return next();
      const held = (this.#held.get(key) ?? 1) - 1;
      if (held === 0) this.#held.delete(key);
      else this.#held.set(key, held);
    };
  }
}
