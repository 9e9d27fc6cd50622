import type { SessionEvent } from '@clawsmith/core';
import { sql, type Kysely } from 'kysely';

/** Called when a watched session's events changed (appended, or cut back by a restore). */
export type SessionChangeListener = () => void;

/** Options of {@link StoreWatcher}. */
export interface StoreWatcherOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly db: Kysely<any>;
  /** Follows events this process persists (core's `subscribe`). */
  readonly subscribe: (listener: (event: SessionEvent) => void) => () => void;
  /** How often to look for commits of other processes; default 25 ms. */
  readonly pollIntervalMs?: number;
}

/**
 * Notices new events of watched sessions, whoever wrote them. Events this process writes arrive
 * through core's subscription; commits of another process (a `clawsmith run` in a terminal on
 * the same home) are seen by polling SQLite's `PRAGMA data_version`, which changes only when
 * another connection committed: one cheap statement per tick, whatever the number of clients.
 * Only then is each watched session's last sequence read, and only its listeners are woken.
 */
export class StoreWatcher {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly #db: Kysely<any>;
  readonly #listeners = new Map<string, Set<SessionChangeListener>>();
  readonly #lastSequences = new Map<string, number>();
  readonly #unsubscribe: () => void;
  readonly #timer: NodeJS.Timeout;
  #dataVersion: number | undefined;
  readonly #recheckTicks: number;
  #quietTicks = 0;
  #ticking = false;
  #closed = false;

  constructor(options: StoreWatcherOptions) {
    this.#db = options.db;
    this.#unsubscribe = options.subscribe((event) => {
      if (!this.#listeners.has(event.sessionId)) return;
      queueMicrotask(() => this.#wake(event.sessionId));
    });
    const interval = options.pollIntervalMs ?? 25;
    this.#recheckTicks = Math.max(1, Math.round(1_000 / interval));
    this.#timer = setInterval(() => void this.#tick(), interval);
    this.#timer.unref();
  }

  /** Calls `listener` whenever `sessionId` changes; returns the function that stops it. */
  watch(sessionId: string, listener: SessionChangeListener): () => void {
    let listeners = this.#listeners.get(sessionId);
    if (!listeners) {
      this.#listeners.set(sessionId, (listeners = new Set()));
      this.#lastSequences.delete(sessionId);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(sessionId) === listeners) {
        this.#listeners.delete(sessionId);
        this.#lastSequences.delete(sessionId);
      }
    };
  }

  /** Stops polling and wakes every listener one last time. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#unsubscribe();
    for (const sessionId of [...this.#listeners.keys()]) this.#wake(sessionId);
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#closed || this.#listeners.size === 0) return;
    this.#ticking = true;
    try {
      const result = await sql<{ data_version: number }>`pragma data_version`.execute(this.#db);
      const version = Number(result.rows[0]?.data_version);
      // data_version misses commits of this very connection made outside core's subscription
      // (another SessionStore on the same database): look anyway about once a second.
      this.#quietTicks += 1;
      if (version === this.#dataVersion && this.#quietTicks < this.#recheckTicks) return;
      this.#quietTicks = 0;
      this.#dataVersion = version;
      for (const sessionId of [...this.#listeners.keys()]) {
        const row = await sql<{
          last: number | null;
        }>`select max(sequence) as last from session_event where session_id = ${sessionId}`.execute(this.#db);
        const last = Number(row.rows[0]?.last ?? 0);
        if (this.#lastSequences.get(sessionId) !== last) {
          this.#lastSequences.set(sessionId, last);
          this.#wake(sessionId);
        }
      }
    } catch {
      // A closed database (server shutting down) ends the watch; close() wakes the listeners.
    } finally {
      this.#ticking = false;
    }
  }

  #wake(sessionId: string): void {
    for (const listener of this.#listeners.get(sessionId) ?? []) listener();
  }
}
