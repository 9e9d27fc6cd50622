import { approvalAnswerBodySchema, startTurnBodySchema } from '../api/api-schemas.js';
import { parseBody, parseId } from '../http/parse-request.js';
import { WebError } from '../http/web-error.js';
import type { Route } from './route.js';
import { traceContextOfRequest } from './trace-headers.js';

/** Start and cancel turns; pending approvals and their answers. */
export const turnRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/api/sessions/:sessionId/turns',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const body = await parseBody(c, startTurnBodySchema);
      return c.json(await web.turns.start(sessionId, body.prompt, traceContextOfRequest(c.req.raw.headers)), 202);
    },
  },
  {
    method: 'POST',
    path: '/api/sessions/:sessionId/cancel',
    async handler(c, web) {
      return c.json(await web.turns.cancel(parseId(c, 'sessionId')));
    },
  },
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/approvals',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      await web.store.requireSession(sessionId);
      const pending = await web.store.listApprovals(sessionId);
      return c.json({
        approvals: pending.map((approval) => {
          const waiting = web.approvals.waiting(sessionId, approval.id);
          return {
            ...approval,
            answerableHere: waiting !== undefined,
            ...(waiting ? { input: waiting.input, capabilities: waiting.capabilities } : {}),
          };
        }),
      });
    },
  },
  {
    method: 'POST',
    path: '/api/sessions/:sessionId/approvals/:approvalId',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const approvalId = parseId(c, 'approvalId');
      const body = await parseBody(c, approvalAnswerBodySchema);
      await web.store.requireSession(sessionId);
      if (web.approvals.answer(sessionId, approvalId, body.answer))
        return c.json({ sessionId, approvalId, answer: body.answer });
      const pending = await web.store.listApprovals(sessionId);
      if (pending.some((approval) => approval.id === approvalId))
        throw new WebError(
          'approval_elsewhere',
          'Another process runs the turn that waits for this approval; answer it in that terminal.',
        );
      throw new WebError('approval_not_found', `No pending approval ${approvalId} in session ${sessionId}.`);
    },
  },
];
