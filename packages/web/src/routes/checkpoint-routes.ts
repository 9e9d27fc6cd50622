import { ClawsmithError } from '@clawsmith/tool-protocol';
import { diffQuerySchema, restoreBodySchema } from '../api/api-schemas.js';
import { parseBody, parseId, parseQuery } from '../http/parse-request.js';
import { runsElsewhere } from '../turns/turn-runner.js';
import type { Route } from './route.js';

/** Turns with their checkpoint manifests, one file's diff, restore. */
export const checkpointRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/turns',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      await web.store.requireSession(sessionId);
      const turns = await web.store.listTurns(sessionId);
      const points = new Map(
        (await web.checkpoints.listRestorePoints(sessionId)).map((point) => [point.turnId, point] as const),
      );
      const described = await Promise.all(
        turns.map(async (turn) => {
          const point = points.get(turn.turnId);
          const manifest = point ? (await web.checkpoints.getRestorePoint(sessionId, turn.turnId)).manifest : undefined;
          return {
            turnId: turn.turnId,
            ordinal: turn.ordinal,
            prompt: turn.prompt,
            status: turn.status,
            startedAt: turn.startedAt,
            completedAt: turn.completedAt,
            checkpoint: point
              ? {
                  undone: point.undone,
                  messageCount: point.messageCount,
                  eventSequence: point.eventSequence,
                  files: manifest?.files ?? [],
                  totals: manifest?.totals ?? null,
                }
              : null,
          };
        }),
      );
      return c.json({ turns: described });
    },
  },
  {
    method: 'GET',
    path: '/api/sessions/:sessionId/turns/:turnId/diff',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const turnId = parseId(c, 'turnId');
      const query = parseQuery(c, diffQuerySchema);
      await web.store.requireSession(sessionId);
      if (!(await web.store.getTurn(sessionId, turnId)))
        throw new ClawsmithError('turn_not_found', `Session ${sessionId} has no turn ${turnId}.`);
      return c.json(await web.core.diff(sessionId, turnId, query.path));
    },
  },
  {
    method: 'POST',
    path: '/api/sessions/:sessionId/turns/:turnId/restore',
    async handler(c, web) {
      const sessionId = parseId(c, 'sessionId');
      const turnId = parseId(c, 'turnId');
      const body = await parseBody(c, restoreBodySchema);
      await web.store.requireSession(sessionId);
      if (web.turns.runsHere(sessionId) || runsElsewhere(await web.store.getLastTurn(sessionId)))
        throw new ClawsmithError(
          'turn_in_progress',
          `A turn is running in session ${sessionId}; cancel it or wait for it before restoring.`,
        );
      return c.json(await web.core.restore(sessionId, turnId, body.scope));
    },
  },
];
