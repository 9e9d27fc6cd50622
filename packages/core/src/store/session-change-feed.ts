import {
  canListenForNotifications,
  databaseEngineOf,
  listenForNotifications,
  type DatabaseHandle,
  type NotificationListener,
} from '@clawsmith/platform';
import { sql } from 'kysely';
import { parseSessionChangePayload, SESSION_CHANGE_CHANNEL } from './session-change-notice.js';
import type { SessionEvent } from './session-records.js';

/** Called when a watched session's events changed (appended, cut back by a restore, deleted). */
export type SessionChangeListener = () => void;

/** Options of {@link openSessionChangeFeed}. */
export interface SessionChangeFeedOptions {
  /** The home database (`openClawsmithHome`'s `db`). */
  readonly db: DatabaseHandle;
  /** Follows events this process persists (`AgentCore.subscribe`), so they are seen at once. */
  readonly subscribe?: (listener: (event: SessionEvent) => void) => () => void;
  /** SQLite: how often to look for commits of other processes; default (or `undefined`) 25 ms. */
  readonly pollIntervalMs?: number | undefined;
}

/**
 * Tells watchers when a session's events change, whoever changed them: this process, another
 * process on this machine, or (on PostgreSQL) a process on another machine. A listener is only
 * told that something changed; it reads the events by sequence from where it stands, so a wake-up
 * too many costs one read and none is ever needed to see an event twice.
 */
export interface SessionChangeFeed {
  /** Calls `listener` whenever `sessionId` changes; returns the function that stops it. */
  watch(sessionId: string, listener: SessionChangeListener): () => void;
  /** Stops following changes and wakes every listener one last time. */
  close(): Promise<void>;
}

/**
 * Opens the change feed of a home, on its engine:
 *
 * - SQLite: polls `PRAGMA data_version`, which changes only when another connection committed
 *   (one cheap statement per tick, whatever the number of watchers); only then is each watched
 *   session's last sequence read, and only the sessions that moved are woken.
 * - PostgreSQL: `LISTEN`s on {@link SESSION_CHANGE_CHANNEL}, which the session store notifies in
 *   the transaction of each append, restore, fork and deletion; after the listening connection is
 *   lost and comes back, every watched session is woken, so its watchers read by sequence what
 *   was committed meanwhile. A database this process cannot listen on (not opened through
 *   `@clawsmith/platform`) is polled for each watched session's last sequence instead.
 */
export async function openSessionChangeFeed(options: SessionChangeFeedOptions): Promise<SessionChangeFeed> {
  const feed = new Watchers(options);
  if (canListenForNotifications(options.db)) {
    const listener = await listenForNotifications(options.db, {
      channels: [SESSION_CHANGE_CHANNEL],
      onNotification: (_channel, payload) => {
        const change = parseSessionChangePayload(payload);
        if (change) feed.wake(change.sessionId);
      },
      onListening: () => feed.wakeAll(),
    });
    return feed.startedWith(listener);
  }
  return feed.startedPolling(options.pollIntervalMs ?? 25, databaseEngineOf(options.db) === 'sqlite');
}

class Watchers implements SessionChangeFeed {
  readonly #db: DatabaseHandle;
  readonly #listeners = new Map<string, Set<SessionChangeListener>>();
  readonly #lastSequences = new Map<string, number>();
  readonly #unsubscribe: () => void;
  #listener: NotificationListener | undefined;
  #timer: NodeJS.Timeout | undefined;
  #dataVersion: number | undefined;
  #recheckTicks = 1;
  #quietTicks = 0;
  #ticking = false;
  #closed = false;

  constructor(options: SessionChangeFeedOptions) {
    this.#db = options.db;
    this.#unsubscribe =
      options.subscribe?.((event) => {
        if (!this.#listeners.has(event.sessionId)) return;
        queueMicrotask(() => this.wake(event.sessionId));
      }) ?? (() => {});
  }

  startedWith(listener: NotificationListener): this {
    this.#listener = listener;
    return this;
  }

  startedPolling(intervalMs: number, useDataVersion: boolean): this {
    this.#recheckTicks = useDataVersion ? Math.max(1, Math.round(1_000 / intervalMs)) : 1;
    this.#timer = setInterval(() => void this.#tick(useDataVersion), intervalMs);
    this.#timer.unref();
    return this;
  }

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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#unsubscribe();
    const listener = this.#listener;
    this.wakeAll();
    await listener?.close();
  }

  wake(sessionId: string): void {
    for (const listener of this.#listeners.get(sessionId) ?? []) listener();
  }

  wakeAll(): void {
    for (const sessionId of [...this.#listeners.keys()]) this.wake(sessionId);
  }

  async #tick(useDataVersion: boolean): Promise<void> {
    if (this.#ticking || this.#closed || this.#listeners.size === 0) return;
    this.#ticking = true;
    try {
      if (useDataVersion) {
        const result = await sql<{ data_version: number }>`pragma data_version`.execute(this.#db);
        const version = Number(result.rows[0]?.data_version);
        // data_version misses commits of this very connection made outside the subscription
        // (another SessionStore on the same database): look anyway about once a second.
        this.#quietTicks += 1;
        if (version === this.#dataVersion && this.#quietTicks < this.#recheckTicks) return;
        this.#quietTicks = 0;
        this.#dataVersion = version;
      }
      for (const sessionId of [...this.#listeners.keys()]) {
        const row = await sql<{
          last: number | null;
        }>`select max(sequence) as last from session_event where session_id = ${sessionId}`.execute(this.#db);
        const last = Number(row.rows[0]?.last ?? 0);
        if (this.#lastSequences.get(sessionId) !== last) {
          this.#lastSequences.set(sessionId, last);
          this.wake(sessionId);
        }
      }
    } catch {
      // A closed database (the process shutting down) ends the watch; close() wakes the listeners.
    } finally {
      this.#ticking = false;
    }
  }
}
