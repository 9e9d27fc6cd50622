import { describe, expect, it } from 'vitest';
import { createWebHarness, rawHttp } from '../__fixtures__/web-harness.js';

const signInCode = (loginUrl: string) => loginUrl.slice(loginUrl.indexOf('#token=') + '#token='.length);

describe('web server security (real HTTP on 127.0.0.1)', () => {
  it('refuses every API route without the cookie or bearer token, with a JSON error', async () => {
    const web = await createWebHarness();
    const response = await web.raw('/api/sessions');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const wrong = await web.raw('/api/sessions', { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    const right = await web.api('/api/sessions');
    expect(right.status).toBe(200);
  });

  it('exchanges the sign-in code for an HttpOnly, SameSite=Strict cookie that then authorises the API', async () => {
    const web = await createWebHarness();
    const login = await web.raw('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web.server.origin },
      body: JSON.stringify({ token: signInCode(web.server.loginUrl) }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^clawsmith_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(signInCode(web.server.loginUrl));
    expect(cookie).not.toContain(web.server.token);
    const session = cookie.split(';')[0]!;
    expect((await web.raw('/api/sessions', { headers: { cookie: session } })).status).toBe(200);
    expect((await web.raw('/api/sessions', { headers: { cookie: 'clawsmith_session=forged' } })).status).toBe(401);

    const logout = await web.raw('/api/logout', {
      method: 'POST',
      headers: { cookie: session, origin: web.server.origin },
    });
    expect(logout.status).toBe(200);
    expect((await web.raw('/api/sessions', { headers: { cookie: session } })).status).toBe(401);
  });

  it('refuses a wrong sign-in code and, after 10 wrong codes a minute, refuses even a live one and the API token', async () => {
    const web = await createWebHarness();
    const attempt = (token: string) =>
      web.raw('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: web.server.origin },
        body: JSON.stringify({ token }),
      });
    for (let index = 0; index < 10; index += 1) {
      const response = await attempt(`wrong-${index}`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    const throttled = await attempt(signInCode(web.server.loginUrl));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await throttled.json()).toMatchObject({ error: { code: 'too_many_attempts' } });
    const bearer = await web.api('/api/sessions');
    expect(bearer.status).toBe(429);
  });

  it('answers only requests addressed to the bound address, localhost or a configured name (DNS rebinding)', async () => {
    const web = await createWebHarness({ allowedHosts: ['devbox.internal'] });
    const auth = { authorization: `Bearer ${web.server.token}` };
    for (const host of [
      `127.0.0.1:${web.server.port}`,
      `localhost:${web.server.port}`,
      `devbox.internal:${web.server.port}`,
    ]) {
      expect((await rawHttp(web.server, { path: '/api/sessions', headers: { ...auth, host } })).status).toBe(200);
    }
    for (const host of [
      `evil.example:${web.server.port}`,
      '127.0.0.1',
      `localhost:1`,
      `127.0.0.1.evil.example:${web.server.port}`,
    ]) {
      const response = await rawHttp(web.server, { path: '/api/sessions', headers: { ...auth, host } });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'host_not_allowed' } });
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    }
    const page = await rawHttp(web.server, { path: '/', headers: { host: `attacker.test:${web.server.port}` } });
    expect(page.status).toBe(403);
  });

  it('refuses state changes from another origin or without Origin when signed in by cookie (CSRF)', async () => {
    const web = await createWebHarness();
    const session = await web.core.createSession({ workspaceRoot: web.workspace, title: 'before' });
    const login = await web.raw('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web.server.origin },
      body: JSON.stringify({ token: signInCode(web.server.loginUrl) }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const patch = (headers: Record<string, string>) =>
      web.raw(`/api/sessions/${session.id}`, {
        method: 'PATCH',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ title: 'after' }),
      });
    for (const headers of [
      { origin: 'http://evil.example' } as Record<string, string>,
      { origin: 'null' },
      {},
      { origin: `https://127.0.0.1:${web.server.port}` },
    ]) {
      const response = await patch(headers);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'origin_not_allowed' } });
    }
    expect((await web.store.getSession(session.id))?.title).toBe('before');
    const allowed = await patch({ origin: web.server.origin });
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as { title: string }).title).toBe('after');
  });

  it('sends the security headers on every answer and never a CORS header, preflight included', async () => {
    const web = await createWebHarness();
    const answers = [
      await web.raw('/'),
      await web.raw('/assets/not-there.js'),
      await web.api('/api/sessions'),
      await web.raw('/api/sessions', { headers: { origin: 'http://evil.example' } }),
      await web.api('/api/nothing-here'),
      await web.raw('/api/sessions', {
        method: 'OPTIONS',
        headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
      }),
    ];
    for (const response of answers) {
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
    expect(answers.at(-1)!.status).toBe(405);
    const shell = await answers[0]!.text();
    // Every script is a file of the page; none is inline.
    expect(shell).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('validates every id in a URL and never serves one session under another session id', async () => {
    const web = await createWebHarness();
    const first = await web.core.createSession({ workspaceRoot: web.workspace });
    const second = await web.core.createSession({ workspaceRoot: web.workspace });
    const artifact = await web.home.artifacts.write('secret of the first session\n', {
      sessionId: first.id,
      toolCallId: 'call_1',
    });
    for (const path of [
      '/api/sessions/..%2F..%2Fetc%2Fpasswd',
      '/api/sessions/.hidden/events',
      `/api/sessions/${first.id}/artifacts/..%2F..%2Fclawsmith.db`,
      '/api/sessions/a%00b',
    ]) {
      const response = await web.api(path);
      expect(response.status, path).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_id' } });
    }
    const own = await web.api(`/api/sessions/${first.id}/artifacts/${artifact.id}?startLine=1`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { text: string }).text).toBe('secret of the first session\n');
    const across = await web.api(`/api/sessions/${second.id}/artifacts/${artifact.id}?startLine=1`);
    const unknown = await web.api(
      `/api/sessions/${second.id}/artifacts/art_00000000000000000000000000000000?startLine=1`,
    );
    expect(across.status).toBe(404);
    expect(unknown.status).toBe(404);
    const acrossBody = (await across.json()) as { error: { code: string; message: string } };
    const unknownBody = (await unknown.json()) as { error: { code: string; message: string } };
    expect(acrossBody.error.code).toBe('artifact_not_found');
    expect(unknownBody.error.code).toBe('artifact_not_found');
    expect(acrossBody.error.message.replace(artifact.id, 'ID')).toBe(
      unknownBody.error.message.replace('art_00000000000000000000000000000000', 'ID'),
    );
  });
});
