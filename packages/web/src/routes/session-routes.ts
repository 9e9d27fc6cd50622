import {
  forkBodySchema,
  messagePageQuerySchema,
  sessionListQuerySchema,
  sessionPatchBodySchema,
} from '../api/api-schemas.js';
import { parseBody, parseId, parseQuery } from '../http/parse-request.js';
import { toTranscriptMessage } from '../transcript/tool-status.js';
import type { Route } from './route.js';
import { delegationIndex, summarizeSession } from './session-summary.js';

/** Sessions: list, one, title, delete, fork, messages, todos. */
export const sessionRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/api/sessions',
    async handler(c, web) {
      const query = parseQuery(c, sessionListQuerySchema);
      const sessions = await web.store.listSessions({ limit: query.limit + 1, offset: query.offset });
      const page = sessions.slice(0, query.limit);
      const delegations = await delegationIndex(web);
      const firstPrompts = await web.store.listFirstPrompts(page.map((session) => session.id));
      return c.json({
        sessions: await Promise.all(page.map((session) => summarizeSession(web, session, delegations, firstPrompts))),
        nextOffset: sessions.length > query.limit ? query.offset + query.limit : null,
      });
    },
  },
  {
    method: 'GET',
    path: '/api/sessions/:sessionId',
    async handler(c, web) {
      const session = await web.store.requireSession(parseId(c, 'sessionId'));
      return c.json(await summarizeSession(web, session));
    },
  },
  {
    method: 'PATCH',
    path: '/api/sessions/:sessionId',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const body = await parseBody(c, sessionPatchBodySchema);
      return c.json(await summarizeSession(web, await web.store.renameSession(sessionId, body.title)));
    },
  },
  {
    method: 'DELETE',
    path: '/api/sessions/:sessionId',
    async handler(c, web) {
      // Core refuses a session whose turn runs (session_busy) before anything is removed.
      return c.json(await web.core.deleteSession(parseId(c, 'sessionId')));
    },
  },
  {
    method: 'POST',
    path: '/api/sessions/:sessionId/fork',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const body = await parseBody(c, forkBodySchema);
      const child = await web.core.fork(sessionId, body.atTurnId === undefined ? {} : { atTurnId: body.atTurnId });
      return c.json(await summarizeSession(web, child), 201);
    },
  },
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/messages',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const query = parseQuery(c, messagePageQuerySchema);
      await web.store.requireSession(sessionId);
      const all = await web.store.listMessages(sessionId);
      const page = all.slice(query.offset, query.offset + query.limit);
      return c.json({
        messages: page.map((message, index) => toTranscriptMessage(message, query.offset + index + 1)),
        total: all.length,
        nextOffset: query.offset + page.length < all.length ? query.offset + page.length : null,
      });
    },
  },
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/todos',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      await web.store.requireSession(sessionId);
      return c.json({ todos: await web.store.getTodos(sessionId) });
    },
  },
];
