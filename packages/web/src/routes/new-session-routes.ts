import { newSessionBodySchema } from '../api/api-schemas.js';
import { parseBody } from '../http/parse-request.js';
import { WebError } from '../http/web-error.js';
import type { Route } from './route.js';
import { traceContextOfRequest } from './trace-headers.js';

/** The folders new sessions may start in, and starting one there with its first prompt. */
export const newSessionRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/api/workspaces',
    handler(c, web) {
      return c.json({ workspaces: web.workspaces.map((path) => ({ path })), canRunTurns: web.turns.canRunTurns });
    },
  },
  {
    method: 'POST',
    path: '/api/sessions',
    async handler(c, web) {
      const body = await parseBody(c, newSessionBodySchema);
      // Only a folder the server was started with: the browser chooses, it never names a path.
      if (!web.workspaces.includes(body.workspace))
        throw new WebError(
          'workspace_not_offered',
          web.workspaces.length === 0
            ? 'This server offers no workspace for new sessions; start `clawsmith web` in the folder to work in.'
            : 'That folder is not one this server offers; choose one of GET /api/workspaces.',
        );
      web.turns.requireModel();
      const session = await web.core.createSession({ workspaceRoot: body.workspace });
      const started = await web.turns.start(session.id, body.prompt, traceContextOfRequest(c.req.raw.headers));
      return c.json(started, 201);
    },
  },
];
