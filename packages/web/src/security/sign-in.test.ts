import { describe, expect, it } from 'vitest';
import { createWebHarness, type WebHarness } from '../__fixtures__/web-harness.js';

const codeOf = (loginUrl: string) => /#token=([A-Za-z0-9_-]{43})$/.exec(loginUrl)![1]!;

function signIn(web: WebHarness, token: string) {
  return web.raw('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: web.server.origin },
    body: JSON.stringify({ token }),
  });
}

async function errorCode(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('single-use sign-in codes (real HTTP on 127.0.0.1)', () => {
  it('signs in once with the printed URL; a second use answers sign_in_code_used and sets no cookie', async () => {
    const web = await createWebHarness();
    const code = codeOf(web.server.loginUrl);
    expect(code).not.toBe(web.server.token);
    const first = await signIn(web, code);
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect((await web.raw('/api/sessions', { headers: { cookie } })).status).toBe(200);

    const again = await signIn(web, code);
    expect(again.headers.get('set-cookie')).toBeNull();
    const refused = await errorCode(again);
    expect(refused).toMatchObject({ status: 401, code: 'sign_in_code_used' });
    expect(refused.message).toMatch(/already used; press Enter in the terminal running clawsmith web/);
    // The cookie it gave stays good.
    expect((await web.raw('/api/sessions', { headers: { cookie } })).status).toBe(200);
  });

  it('answers sign_in_code_expired to a code left unused past its time to live', async () => {
    const web = await createWebHarness({ signInCodeTtlMs: 50 });
    const code = codeOf(web.server.loginUrl);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const response = await signIn(web, code);
    expect(response.headers.get('set-cookie')).toBeNull();
    const refused = await errorCode(response);
    expect(refused).toMatchObject({ status: 401, code: 'sign_in_code_expired' });
    expect(refused.message).toMatch(/expired \(an unused URL works for 1 s\); press Enter/);
    // An expired code is no guess: asking again and again is not throttled.
    for (let attempt = 0; attempt < 11; attempt += 1)
      expect((await errorCode(await signIn(web, code))).code).toBe('sign_in_code_expired');
  });

  it('makes new URLs with createLoginUrl, each good once, independent of the others', async () => {
    const web = await createWebHarness();
    const printed = codeOf(web.server.loginUrl);
    const urls = [web.server.createLoginUrl(), web.server.createLoginUrl()];
    for (const url of urls) expect(url).toMatch(new RegExp(`^${web.server.origin}/#token=[A-Za-z0-9_-]{43}$`));
    const [second, third] = urls.map(codeOf) as [string, string];
    expect(new Set([printed, second, third]).size).toBe(3);
    expect((await signIn(web, third)).status).toBe(200);
    expect((await errorCode(await signIn(web, third))).code).toBe('sign_in_code_used');
    expect((await signIn(web, second)).status).toBe(200);
    expect((await signIn(web, printed)).status).toBe(200);
  });

  it('counts wrong codes toward the throttle: after 10 a minute even a live code waits', async () => {
    const web = await createWebHarness();
    const live = codeOf(web.server.createLoginUrl());
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect(await errorCode(await signIn(web, `wrong-${attempt}`))).toMatchObject({
        status: 401,
        code: 'unauthorized',
      });
    const throttled = await signIn(web, live);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
    // Refused while throttled, the code was not spent.
    expect((await errorCode(throttled)).code).toBe('too_many_attempts');
  });

  it('keeps the API token and sign-in codes apart: neither works as the other', async () => {
    const apiToken = 'fixed-api-token-0123456789abcdef';
    const web = await createWebHarness({ token: apiToken });
    expect(web.server.token).toBe(apiToken);
    expect(web.server.loginUrl).not.toContain(apiToken);
    const bearer = await web.raw('/api/sessions', { headers: { authorization: `Bearer ${apiToken}` } });
    expect(bearer.status).toBe(200);

    expect(await errorCode(await signIn(web, apiToken))).toMatchObject({ status: 401, code: 'unauthorized' });
    const code = codeOf(web.server.loginUrl);
    const asBearer = await web.raw('/api/sessions', { headers: { authorization: `Bearer ${code}` } });
    expect(await errorCode(asBearer)).toMatchObject({ status: 401, code: 'unauthorized' });
    // Presented as a bearer token, the code was not spent.
    expect((await signIn(web, code)).status).toBe(200);
  });
});
