import type { Kysely } from 'kysely';
import type pg from 'pg';
import { postgresUrlOf } from './postgres-urls.js';

/** What {@link listenForNotifications} listens to, and whom it tells. */
export interface NotificationListenerOptions {
  /** The channels to `LISTEN` on (plain identifiers: letters, digits, underscores). */
  readonly channels: readonly string[];
  /** Called with each notification's channel and payload, in the order the server sent them. */
  readonly onNotification: (channel: string, payload: string) => void;
  /**
   * Called each time the listener is listening again: after the first connection and after every
   * reconnection. Whatever was committed while it was not listening sent no notification to it,
   * so this is where the caller catches up by reading what it has not seen.
   */
  readonly onListening: () => void;
  /** Called when the connection is lost or a reconnection fails (the listener keeps trying). */
  readonly onConnectionError?: (error: Error) => void;
  /** The first wait before a reconnection; it doubles up to {@link maxRetryDelayMs}. Default 50 ms. */
  readonly retryDelayMs?: number;
  /** The longest wait between reconnections; default 2,000 ms. */
  readonly maxRetryDelayMs?: number;
}

/** A running listener of {@link listenForNotifications}. */
export interface NotificationListener {
  /** The server process id of the current listening connection (undefined while reconnecting). */
  readonly backendPid: number | undefined;
  /** Stops listening and closes the connection; no callback is called after it resolves. */
  close(): Promise<void>;
}

/** The `application_name` of a listening connection, as `pg_stat_activity` shows it. */
export const NOTIFICATION_LISTENER_APPLICATION = 'clawsmith listener';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Whether {@link listenForNotifications} can listen on `db`: true for a PostgreSQL database that
 * `openPostgresDatabase` or `openDatabase` opened (this package knows its URL), false for SQLite
 * and for any database opened elsewhere, which a caller then polls instead.
 */
export function canListenForNotifications<Tables>(db: Kysely<Tables>): boolean {
  return postgresUrlOf(db) !== undefined;
}

/**
 * Listens to PostgreSQL notifications (`NOTIFY`, `pg_notify`) on a connection of its own to the
 * database `db` talks to (one opened by `openPostgresDatabase` or `openDatabase`), outside its
 * pool: a listening connection must stay open and would otherwise hold a pooled one forever.
 * A lost connection (a server restart, `pg_terminate_backend`, a network cut) is reopened with a
 * growing pause until {@link NotificationListener.close}; `onListening` follows every
 * (re)connection, so the caller reads what it missed. Resolves once the first connection
 * listens; a database that cannot be reached then rejects, and nothing keeps running.
 */
export async function listenForNotifications<Tables>(
  db: Kysely<Tables>,
  options: NotificationListenerOptions,
): Promise<NotificationListener> {
  const url = postgresUrlOf(db);
  if (url === undefined)
    throw new TypeError(
      'listenForNotifications needs a PostgreSQL database opened by openPostgresDatabase or openDatabase of @clawsmith/platform.',
    );
  for (const channel of options.channels)
    if (!IDENTIFIER.test(channel))
      throw new TypeError(`The notification channel "${channel}" must be a lower-case identifier (a-z, 0-9, _).`);
  // Loaded here, as openPostgresDatabase does: a process on SQLite never pays for the driver.
  const { default: pgDriver } = await import('pg');
  const firstDelay = options.retryDelayMs ?? 50;
  const maxDelay = options.maxRetryDelayMs ?? 2_000;
  let client: pg.Client | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = firstDelay;

  const connect = async (): Promise<void> => {
    const next = new pgDriver.Client({ connectionString: url, application_name: NOTIFICATION_LISTENER_APPLICATION });
    let lost = false;
    let established = false;
    const onLost = (error: Error) => {
      if (lost) return;
      lost = true;
      // Before it listens, connect() itself fails and its caller decides what follows.
      if (!established) return;
      if (client === next) client = undefined;
      next.end().catch(() => {});
      if (closed) return;
      options.onConnectionError?.(error);
      scheduleReconnect();
    };
    next.on('error', onLost);
    next.on('end', () => onLost(new Error('The listening connection to PostgreSQL ended.')));
    next.on('notification', (message) => {
      if (!closed && !lost) options.onNotification(message.channel, message.payload ?? '');
    });
    try {
      await next.connect();
      for (const channel of options.channels) await next.query(`listen ${channel}`);
      if (lost) throw new Error('The listening connection to PostgreSQL ended while it was set up.');
    } catch (error) {
      lost = true;
      await next.end().catch(() => {});
      throw error;
    }
    established = true;
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delay = firstDelay;
    options.onListening();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch((error: unknown) => {
        if (closed) return;
        options.onConnectionError?.(error instanceof Error ? error : new Error(String(error)));
        delay = Math.min(delay * 2, maxDelay);
        scheduleReconnect();
      });
    }, delay);
  };

  await connect();
  return {
    get backendPid() {
      return (client as (pg.Client & { processID?: number }) | undefined)?.processID;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
