// A session's events: the newest page first, older pages on request, then live over the event
// stream (which resumes with Last-Event-ID by itself). A `reset` (a restore cut the session
// back) reloads from the pages.
import { useCallback, useEffect, useRef, useState } from 'react';
import { getJson, sessionPath } from '../api/api-client';
import type { EventPage, SessionEvent } from '../api/api-types';
import { takePrefetched } from '../api/prefetch';
import { EVENT_PAGE, newestEventsPath } from './first-view';

export interface SessionEvents {
  readonly events: readonly SessionEvent[];
  /** True once the first page arrived (until a reset reloads it). */
  readonly loaded: boolean;
  /** True when events before the first loaded one exist. */
  readonly hasOlder: boolean;
  readonly loadingOlder: boolean;
  readonly loadOlder: () => void;
  /** The first load failed, or the stream stopped for good. */
  readonly error: unknown;
  /** Counts reloads after a reset, so views can refetch what depends on history. */
  readonly generation: number;
}

export function useSessionEvents(sessionId: string): SessionEvents {
  const [events, setEvents] = useState<readonly SessionEvent[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<unknown>();
  const [generation, setGeneration] = useState(0);
  const eventsRef = useRef(events);
  eventsRef.current = events;

  useEffect(() => {
    let closed = false;
    let source: EventSource | undefined;
    let pending: SessionEvent[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    // Events arrive in bursts: apply them together, at most every 50 ms.
    const flush = () => {
      flushTimer = undefined;
      const arrived = pending;
      pending = [];
      setEvents((previous) => {
        const last = previous.at(-1)?.sequence ?? 0;
        const fresh = arrived.filter((event) => event.sequence > last);
        return fresh.length === 0 ? previous : [...previous, ...fresh];
      });
    };
    setEvents([]);
    setLoaded(false);
    setError(undefined);
    (async () => {
      const path = newestEventsPath(sessionId);
      const page = await (takePrefetched<EventPage>(path) ?? getJson<EventPage>(path));
      if (closed) return;
      setEvents(page.events as SessionEvent[]);
      setLoaded(true);
      const cursor = page.nextAfterSequence;
      source = new EventSource(sessionPath(sessionId, `/events/stream?afterSequence=${cursor}`));
      source.onmessage = (message: MessageEvent<string>) => {
        pending.push(JSON.parse(message.data) as SessionEvent);
        flushTimer ??= setTimeout(flush, 50);
      };
      source.addEventListener('reset', () => {
        source?.close();
        if (!closed) setGeneration((value) => value + 1);
      });
      source.onerror = () => {
        if (source?.readyState === EventSource.CLOSED && !closed)
          setError(new Error('Live updates stopped (the server closed the stream); reload the page to resume.'));
      };
    })().catch((failure: unknown) => {
      if (!closed) setError(failure);
    });
    return () => {
      closed = true;
      source?.close();
      if (flushTimer) clearTimeout(flushTimer);
    };
  }, [sessionId, generation]);

  const loadOlder = useCallback(() => {
    const oldest = eventsRef.current[0]?.sequence ?? 1;
    if (oldest <= 1 || loadingOlder) return;
    const after = Math.max(0, oldest - 1 - EVENT_PAGE);
    setLoadingOlder(true);
    getJson<EventPage>(sessionPath(sessionId, `/events?afterSequence=${after}&limit=${oldest - 1 - after}`))
      .then((page) =>
        setEvents((previous) => {
          const first = previous[0]?.sequence ?? Number.POSITIVE_INFINITY;
          return [...(page.events as SessionEvent[]).filter((event) => event.sequence < first), ...previous];
        }),
      )
      .catch(setError)
      .finally(() => setLoadingOlder(false));
  }, [sessionId, loadingOlder]);

  return { events, loaded, hasOlder: (events[0]?.sequence ?? 1) > 1, loadingOlder, loadOlder, error, generation };
}
