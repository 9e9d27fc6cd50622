import { Hono, type Context } from 'hono';
import { errorAnswer, WebError } from './http/web-error.js';
import { artifactRoutes } from './routes/artifact-routes.js';
import { checkpointRoutes } from './routes/checkpoint-routes.js';
import { eventRoutes } from './routes/event-routes.js';
import { newSessionRoutes } from './routes/new-session-routes.js';
import { pageRoutes } from './routes/page-routes.js';
import type { Route } from './routes/route.js';
import { sessionRoutes } from './routes/session-routes.js';
import { turnRoutes } from './routes/turn-routes.js';
import { applySecurityHeaders } from './security/security-headers.js';
import { authenticate, checkHost, checkOrigin } from './security/request-guard.js';
import type { WebContext } from './web-context.js';

/** Every route the server answers, in registration order. */
export const ROUTES: readonly Route[] = [
  ...pageRoutes,
  ...sessionRoutes,
  ...eventRoutes,
  ...checkpointRoutes,
  ...turnRoutes,
  ...artifactRoutes,
  ...newSessionRoutes,
];

function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * The Hono application: every request is checked for its `Host` first (DNS rebinding), then
 * routed; API routes need the owner's cookie or bearer token, and state changes a matching
 * `Origin`. Every answer, errors included, carries the security headers and never a CORS header.
 */
export function createWebApp(web: WebContext): Hono {
  const app = new Hono();
  const patterns = ROUTES.map((route) => ({ route, pattern: pathPattern(route.path) }));

  app.use('*', async (c, next) => {
    try {
      checkHost(c, web.guard);
      await next();
    } catch (error) {
      c.res = errorResponse(c, error);
    }
    applySecurityHeaders(c.res.headers);
  });

  for (const route of ROUTES) {
    app.on(route.method, route.path, async (c: Context) => {
      if (!route.public) {
        const authentication = authenticate(c, web.guard);
        checkOrigin(c, web.guard, authentication);
      }
      return route.handler(c, web);
    });
  }

  app.notFound((c) => {
    const path = c.req.path;
    const allowed = [...new Set(patterns.filter(({ pattern }) => pattern.test(path)).map(({ route }) => route.method))];
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '));
      return errorResponse(
        c,
        new WebError('method_not_allowed', `${c.req.method} is not allowed here; use ${allowed.join(' or ')}.`),
      );
    }
    return errorResponse(
      c,
      new WebError('route_not_found', `No route ${c.req.method} ${path}; the README lists every route.`),
    );
  });

  app.onError((error, c) => errorResponse(c, error));
  return app;
}

function errorResponse(c: Context, error: unknown): Response {
  const { status, body } = errorAnswer(error);
  if (status === 500) console.error('clawsmith web:', error);
  return c.json(body, status as 400);
}
