import type { SessionChangeFeed } from '@clawsmith/core';
import type { SharedEventReads } from './shared-event-reads.js';

/** Options of {@link createEventStream}. */
export interface EventStreamOptions {
  /** The server's reads of the event log, shared by streams at the same place. */
  readonly reads: SharedEventReads;
  /** The session's last sequence now (what a reset tells the client). */
  readonly lastSequence: (sessionId: string) => Promise<number>;
  /** Wakes the stream when the session changes, whoever changed it (core's `openSessionChangeFeed`). */
  readonly watcher: SessionChangeFeed;
  readonly sessionId: string;
  /** The last sequence the client has; the stream starts after it. */
  readonly afterSequence: number;
  /** Events read per page; default 200. */
  readonly pageSize?: number;
  /** A comment line is sent after this much silence, so proxies and clients see a live stream; default 15,000 ms. */
  readonly heartbeatMs?: number;
  /**
   * A client that has not taken anything for this long while events wait for it is dropped
   * (default 30,000 ms): the server never buffers more than one page per client.
   */
  readonly stallTimeoutMs?: number;
  /** Called when the client is dropped for not reading (the caller closes its socket). */
  readonly onStalled: () => void;
  /** Called once when the stream ends, whatever ended it. */
  readonly onEnd: () => void;
}

const encoder = new TextEncoder();

/**
 * A Server-Sent Events body that follows one session from `afterSequence`. It is pulled, not
 * pushed: a page of events is read from the store only when the client has taken the previous
 * one, so a slow client costs at most one page of memory, and every sequence number is sent
 * exactly once, in order, whoever wrote it. When the session is cut back by a restore, the
 * stream sends an `event: reset` (with the session's last sequence) and ends: the client
 * reloads from there.
 */
export function createEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const pageSize = options.pageSize ?? 200;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
  let cursor = options.afterSequence;
  let anchor: { createdAt: string; type: string } | undefined;
  let wake: (() => void) | undefined;
  let changed = true;
  // When this stream last heard of a change: it reads only what was read after that.
  let changeHeardAt = options.reads.mark();
  let ended = false;
  let lastPullAt = Date.now();
  let pulling = false;
  let stallTimer: NodeJS.Timeout | undefined;

  const unwatch = options.watcher.watch(options.sessionId, () => {
    changed = true;
    changeHeardAt = options.reads.mark();
    wake?.();
  });
  const end = () => {
    if (ended) return;
    ended = true;
    unwatch();
    unfollow();
    clearInterval(stallTimer);
    wake?.();
    options.onEnd();
  };
  const unfollow = options.reads.follow(options.sessionId, end);

  const waitForChange = () =>
    new Promise<'changed' | 'quiet'>((resolve) => {
      if (changed || ended) return resolve('changed');
      const timer = setTimeout(() => done('quiet'), heartbeatMs);
      const done = (result: 'changed' | 'quiet') => {
        clearTimeout(timer);
        wake = undefined;
        resolve(result);
      };
      wake = () => done('changed');
    });

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode('retry: 1000\n\n'));
        stallTimer = setInterval(
          () => {
            if (!pulling && (controller.desiredSize ?? 1) <= 0 && Date.now() - lastPullAt > stallTimeoutMs) {
              end();
              options.onStalled();
            }
          },
          Math.min(1_000, stallTimeoutMs),
        );
        stallTimer.unref();
      },
      async pull(controller) {
        pulling = true;
        lastPullAt = Date.now();
        try {
          for (;;) {
            if (ended) return controller.close();
            changed = false;
            const window = await options.reads
              .read(options.sessionId, cursor, pageSize, changeHeardAt)
              // Once the stream has ended (the server closes), its store may be closed under the read.
              .catch((error: unknown) => (ended ? undefined : Promise.reject(error)));
            // Ended meanwhile (the client left, the server closes): nothing more to send or read.
            if (ended || window === undefined) return controller.close();
            // The last event sent, or the one the client resumed from, is gone or another one now.
            const cutBack =
              cursor > 0 &&
              (window.atPlace === undefined ||
                (anchor !== undefined &&
                  (window.atPlace.createdAt !== anchor.createdAt || window.atPlace.type !== anchor.type)));
            if (cutBack) {
              const lastSequence = await options.lastSequence(options.sessionId);
              if (ended) return controller.close();
              controller.enqueue(
                encoder.encode(
                  `event: reset\ndata: ${JSON.stringify({ reason: 'session_restored', lastSequence })}\n\n`,
                ),
              );
              end();
              return controller.close();
            }
            const { events } = window;
            if (events.length > 0) {
              const last = events.at(-1)!;
              cursor = last.sequence;
              anchor = { createdAt: last.createdAt, type: last.type };
              controller.enqueue(window.encoded());
              if (events.length === pageSize) changed = true;
              return;
            }
            if ((await waitForChange()) === 'quiet') {
              controller.enqueue(encoder.encode(': keep-alive\n\n'));
              return;
            }
          }
        } finally {
          pulling = false;
          lastPullAt = Date.now();
        }
      },
      cancel() {
        end();
      },
    },
    { highWaterMark: 1 },
  );
}
