import type { SessionEvent, SessionReader } from '@clawsmith/core';
import type { WebContext } from '../web-context.js';

/** How many reads of one session stay available to join (streams at different places). */
const READS_KEPT_PER_SESSION = 16;

/**
 * What the event log held from one place on, read once for every stream standing there: the event
 * at `atSequence` (the last one those streams sent, to tell whether a restore cut it away) and up
 * to `limit` events after it, with their SSE text encoded once.
 */
export interface EventWindow {
  /** The event at the streams' place, or undefined (none there: the session was cut back, or the place is 0). */
  readonly atPlace: SessionEvent | undefined;
  /** Events after the place, oldest first, at most the read's limit. */
  readonly events: readonly SessionEvent[];
  /** `events` as SSE messages, encoded on first use and shared. */
  encoded(): Uint8Array;
}

/** What the shared reads need of the store: the event log by sequence. */
export type EventLog = Pick<SessionReader, 'listEvents'>;

interface Read {
  /** The mark taken when the read was started: it saw every change notified before it. */
  readonly startedAt: number;
  readonly window: Promise<EventWindow>;
}

const encoder = new TextEncoder();

/** One SSE message per event: `id` is the sequence (what `Last-Event-ID` sends back), `data` the event as JSON. */
export function formatEvents(events: readonly SessionEvent[]): string {
  let text = '';
  for (const event of events) text += `id: ${event.sequence}\ndata: ${JSON.stringify(event)}\n\n`;
  return text;
}

/**
 * Reads of the event log shared by the streams of one server: streams of one session that stand at
 * the same place after the same change (a page of a busy session followed by 200 tabs) cost one
 * query and one JSON encoding, not one each.
 *
 * Sharing must never hand a stream a read older than a change it was told about, or it would wait
 * for the next change with events unsent. So a stream takes a {@link mark} whenever it hears of a
 * change, and only joins a read started after its mark: such a read began after the change was
 * committed, and sees everything the stream's own read would.
 */
export class SharedEventReads {
  readonly #store: EventLog;
  #clock = 0;
  /** Per followed session: its followers, and its recent reads by place and limit, oldest first. */
  readonly #sessions = new Map<string, { followers: number; reads: Map<string, Read> }>();
  /** What ends each stream that follows a session, for {@link close}. */
  readonly #enders = new Set<() => void>();
  #closed = false;

  constructor(store: EventLog) {
    this.#store = store;
  }

  /** A number greater than any mark or read start before it. */
  mark(): number {
    this.#clock += 1;
    return this.#clock;
  }

  /**
   * Keeps reads of `sessionId` for sharing until the returned function is called (once per
   * stream); `end` ends the stream when the server closes ({@link close}).
   */
  follow(sessionId: string, end: () => void): () => void {
    if (this.#closed) {
      end();
      return () => {};
    }
    this.#enders.add(end);
    const session = this.#sessions.get(sessionId) ?? { followers: 0, reads: new Map<string, Read>() };
    session.followers += 1;
    this.#sessions.set(sessionId, session);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#enders.delete(end);
      session.followers -= 1;
      if (session.followers === 0 && this.#sessions.get(sessionId) === session) this.#sessions.delete(sessionId);
    };
  }

  /** Ends every stream (the server closes): none reads the store again, which may close next. */
  close(): void {
    this.#closed = true;
    for (const end of [...this.#enders]) end();
  }

  /**
   * The event at `place` (when above 0) and up to `limit` events after it, from a read started
   * after `notBefore` (a {@link mark}): joined when one is under way or done, else started.
   */
  read(sessionId: string, place: number, limit: number, notBefore: number): Promise<EventWindow> {
    const session = this.#sessions.get(sessionId);
    const key = `${place}:${limit}`;
    const shared = session?.reads.get(key);
    if (shared && shared.startedAt > notBefore) return shared.window;
    const read: Read = { startedAt: this.mark(), window: this.#readWindow(sessionId, place, limit) };
    if (session) {
      session.reads.delete(key);
      session.reads.set(key, read);
      if (session.reads.size > READS_KEPT_PER_SESSION) session.reads.delete(session.reads.keys().next().value!);
      read.window.catch(() => {
        if (session.reads.get(key) === read) session.reads.delete(key);
      });
    }
    return read.window;
  }

  async #readWindow(sessionId: string, place: number, limit: number): Promise<EventWindow> {
    // One query for both: the event at the place (sequences run 1, 2, 3… without gaps) and those after it.
    const found = await this.#store.listEvents(sessionId, {
      afterSequence: Math.max(0, place - 1),
      limit: place > 0 ? limit + 1 : limit,
    });
    const atPlace = place > 0 && found[0]?.sequence === place ? found[0] : undefined;
    const events = place > 0 ? (atPlace ? found.slice(1) : []) : found;
    let bytes: Uint8Array | undefined;
    return { atPlace, events, encoded: () => (bytes ??= encoder.encode(formatEvents(events))) };
  }
}

const readsOfServers = new WeakMap<WebContext, SharedEventReads>();

/** The shared reads of one server (its routes' context), made on first use. */
export function sharedEventReadsOf(web: WebContext): SharedEventReads {
  let reads = readsOfServers.get(web);
  if (!reads) {
    reads = new SharedEventReads(web.store);
    readsOfServers.set(web, reads);
  }
  return reads;
}
