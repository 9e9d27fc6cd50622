import { eventPageQuerySchema, eventStreamQuerySchema, MAX_SEQUENCE } from '../api/api-schemas.js';
import { parseId, parseQuery } from '../http/parse-request.js';
import { WebError } from '../http/web-error.js';
import { createEventStream } from '../live/event-stream.js';
import { sharedEventReadsOf } from '../live/shared-event-reads.js';
import type { Route } from './route.js';

function lastEventId(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (!/^\d{1,16}$/.test(header) || !Number.isSafeInteger(Number(header)) || Number(header) > MAX_SEQUENCE)
    throw new WebError(
      'invalid_last_event_id',
      'Last-Event-ID must be the sequence number of an event this stream sent (a whole number).',
    );
  return Number(header);
}

/** Events: pages by sequence, and the live stream. */
export const eventRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/events',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const query = parseQuery(c, eventPageQuerySchema);
      await web.store.requireSession(sessionId);
      // Sequences run 1, 2, 3… without gaps, so the newest N start after the last minus N.
      const { afterSequence, limit } =
        'newest' in query
          ? {
              afterSequence: Math.max(0, (await web.store.lastSequence(sessionId)) - query.newest),
              limit: query.newest,
            }
          : query;
      const events = await web.store.listEvents(sessionId, { afterSequence, limit: limit + 1 });
      const page = events.slice(0, limit);
      return c.json({
        events: page,
        nextAfterSequence: page.at(-1)?.sequence ?? afterSequence,
        hasMore: events.length > limit,
        lastSequence: await web.store.lastSequence(sessionId),
      });
    },
  },
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/events/stream',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const query = parseQuery(c, eventStreamQuerySchema);
      const resumeFrom = lastEventId(c.req.header('last-event-id'));
      await web.store.requireSession(sessionId);
      if (web.streams.open >= web.streams.max)
        throw new WebError(
          'too_many_streams',
          `This server already serves ${web.streams.max} event streams; close some tabs or retry later.`,
        );
      web.streams.open += 1;
      const outgoing = (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
      const stream = createEventStream({
        reads: sharedEventReadsOf(web),
        lastSequence: (id) => web.store.lastSequence(id),
        watcher: web.watcher,
        sessionId,
        afterSequence: resumeFrom ?? query.afterSequence,
        heartbeatMs: web.streams.heartbeatMs,
        stallTimeoutMs: web.streams.stallTimeoutMs,
        onStalled: () => outgoing?.destroy(),
        onEnd: () => (web.streams.open -= 1),
      });
      return new Response(stream, {
        status: 200,
        headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' },
      });
    },
  },
];
