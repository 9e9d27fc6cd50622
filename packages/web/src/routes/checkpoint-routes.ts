import { ClawsmithError } from '@clawsmith/tool-protocol';
import { diffQuerySchema, restoreBodySchema } from '../api/api-schemas.js';
import { parseBody, parseId, parseQuery } from '../http/parse-request.js';
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
      const checkpointOf = async (turnId: string) => {
        const point = points.get(turnId);
        if (!point) return null;
        const { manifest } = await web.checkpoints.getRestorePoint(sessionId, turnId);
        return {
          undone: point.undone,
          sequence: point.sequence,
          messageCount: point.messageCount,
          eventSequence: point.eventSequence,
          files: manifest.files,
          totals: manifest.totals,
        };
      };
      const describe = async (turn: (typeof turns)[number]) => ({
        turnId: turn.turnId,
        ordinal: turn.ordinal,
        prompt: turn.prompt,
        status: turn.status,
        startedAt: turn.startedAt,
        completedAt: turn.completedAt,
        checkpoint: await checkpointOf(turn.turnId),
      });
      const described = await Promise.all(turns.map(describe));
      // Turns an earlier conversation restore cut keep their restore points: a later files restore
      // to before an earlier turn puts their files back too, so the page must be able to say so.
      const cut = await web.store.listUndoneTurns(sessionId);
      const cutTurns = (
        await Promise.all(cut.map(async (turn) => ({ ...(await describe(turn)), conversationUndoneAt: turn.undoneAt })))
      ).filter((turn) => turn.checkpoint !== null && !turn.checkpoint.undone);
      return c.json({ turns: described, cutTurns });
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
      if (web.turns.runsHere(sessionId) || (await web.store.runsElsewhere(sessionId)))
        throw new ClawsmithError(
          'turn_in_progress',
          `A turn is running in session ${sessionId}; cancel it or wait for it before restoring.`,
        );
      return c.json(await web.core.restore(sessionId, turnId, body.scope));
    },
  },
];
