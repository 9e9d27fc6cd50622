import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

async function openPage(url: string) {
  const context = await browser().newContext();
  onTestFinished(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(url);
  return page;
}

describe('signing in from the page', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('signs in once from the printed URL, drops the code from the address bar, and refuses the URL a second time', async () => {
    const web = await createWebHarness();
    const code = new URL(web.server.loginUrl).hash.replace('#token=', '');

    const first = await openPage(web.server.loginUrl);
    await first.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(first.url()).toBe(`${web.server.origin}/#/`);
    const cookies = await first.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).toEqual(['clawsmith_session']);
    expect(cookies[0]!.httpOnly).toBe(true);
    expect(cookies[0]!.value).not.toContain(code);
    // The code was replaced in history too: going back does not reach it.
    await first.goBack();
    expect(first.url()).not.toContain('token=');

    const replay = await openPage(web.server.loginUrl);
    const refused = replay.getByRole('alert');
    await refused.waitFor();
    const said = (await refused.textContent()) ?? '';
    expect(said).toBe(
      'sign_in_code_used This sign-in link was already used: each link signs in once. For a new link, press Enter in the terminal where clawsmith web runs and open the URL it prints.',
    );
    expect(said).not.toContain('createLoginUrl');
    expect(replay.url()).toBe(`${web.server.origin}/#/`);
    expect(await replay.context().cookies()).toEqual([]);

    // A new page: a fragment-only change of an open page would not load it again.
    const fresh = await replay.context().newPage();
    await fresh.goto(web.server.createLoginUrl());
    await fresh.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(fresh.url()).toBe(`${web.server.origin}/#/`);
  });
});
