import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { loginBodySchema } from '../api/api-schemas.js';
import { parseBody } from '../http/parse-request.js';
import { WebError } from '../http/web-error.js';
import { checkOrigin, checkThrottle, clientAddress, SESSION_COOKIE } from '../security/request-guard.js';
import { IMMUTABLE_ASSET_CACHE } from '../security/security-headers.js';
import type { WebContext } from '../web-context.js';
import type { Route } from './route.js';

// Served at `/` when the page was not built: says how to build it, and runs nothing.
const NOT_BUILT = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>clawsmith</title></head>
<body><main><h1>clawsmith</h1><p>The page is not built. Run <code>npx nx run @clawsmith/web:build</code> and restart <code>clawsmith web</code>. The API is at /api.</p></main></body>
</html>
`;

function duration(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.ceil(ms / 1000)} s`;
}

function servePage(c: Context, web: WebContext, path: string): Response {
  const file = web.page.get(path);
  if (file)
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': file.contentType,
      ...(file.immutable ? { 'Cache-Control': IMMUTABLE_ASSET_CACHE } : {}),
    });
  if (path === '/') return c.html(NOT_BUILT);
  throw new WebError('route_not_found', `No page file ${path}; reload the page (the server may have been rebuilt).`);
}

const NEW_URL = 'press Enter in the terminal running clawsmith web for a new sign-in URL (or call createLoginUrl())';

/**
 * The built page (React, see page/), sign-in and sign-out. The page trades the URL fragment's
 * single-use sign-in code for the cookie; the API token is not a sign-in code.
 */
export const pageRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/',
    public: true,
    handler: (c, web) => servePage(c, web, '/'),
  },
  {
    method: 'GET',
    path: '/assets/:file',
    public: true,
    handler: (c, web) => servePage(c, web, c.req.path),
  },
  {
    method: 'POST',
    path: '/api/login',
    public: true,
    async handler(c, web) {
      checkOrigin(c, web.guard, 'login');
      checkThrottle(c, web.guard);
      const body = await parseBody(c, loginBodySchema);
      const outcome = web.guard.signInCodes.spend(body.token);
      if (outcome === 'used') throw new WebError('sign_in_code_used', `This sign-in URL was already used; ${NEW_URL}.`);
      if (outcome === 'expired')
        throw new WebError(
          'sign_in_code_expired',
          `This sign-in URL expired (an unused URL works for ${duration(web.guard.signInCodes.ttlMs)}); ${NEW_URL}.`,
        );
      if (outcome === 'unknown') {
        web.guard.throttle.recordFailure(clientAddress(c));
        throw new WebError('unauthorized', `This sign-in code is wrong; ${NEW_URL}.`);
      }
      setCookie(c, SESSION_COOKIE, web.guard.sessions.issue(), { httpOnly: true, sameSite: 'Strict', path: '/' });
      return c.json({ signedIn: true });
    },
  },
  {
    method: 'POST',
    path: '/api/logout',
    async handler(c, web) {
      const cookie = getCookie(c, SESSION_COOKIE);
      if (cookie !== undefined) web.guard.sessions.revoke(cookie);
      setCookie(c, SESSION_COOKIE, '', { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 0 });
      return c.json({ signedIn: false });
    },
  },
];
