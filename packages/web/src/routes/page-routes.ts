import { getCookie, setCookie } from 'hono/cookie';
import { loginBodySchema } from '../api/api-schemas.js';
import { parseBody } from '../http/parse-request.js';
import { WebError } from '../http/web-error.js';
import { checkOrigin, checkThrottle, SESSION_COOKIE, verifyToken } from '../security/request-guard.js';
import type { Route } from './route.js';

const SHELL = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>clawsmith</title><script src="/login.js" defer></script></head>
<body><main><h1>clawsmith</h1><p id="status">Signing in…</p></main></body>
</html>
`;

// Reads the token from the URL fragment (never sent to a server or kept in history), trades it
// for the session cookie, and removes it from the address bar.
const LOGIN_SCRIPT = `const status = document.getElementById('status');
const token = new URLSearchParams(location.hash.slice(1)).get('token');
history.replaceState(null, '', location.pathname);
const show = (text) => { status.textContent = text; };
if (!token) show('Open the URL that clawsmith web printed (it carries the token).');
else fetch('/api/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
  .then((response) => show(response.ok ? 'Signed in. The API is at /api/sessions.' : 'The token was refused; copy the URL again from the terminal.'))
  .catch(() => show('The server did not answer.'));
`;

/** The page shell, its login script, sign-in and sign-out. */
export const pageRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/',
    public: true,
    handler: (c) => c.html(SHELL),
  },
  {
    method: 'GET',
    path: '/login.js',
    public: true,
    handler: (c) => c.body(LOGIN_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
  },
  {
    method: 'POST',
    path: '/api/login',
    public: true,
    async handler(c, web) {
      checkOrigin(c, web.guard, 'login');
      checkThrottle(c, web.guard);
      const body = await parseBody(c, loginBodySchema);
      if (!verifyToken(c, web.guard, body.token))
        throw new WebError('unauthorized', 'The token is wrong; copy the URL clawsmith web printed again.');
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
