import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { screenshot, scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

describe('the session list: a new session and search', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('starts a session in a folder chosen from those the server offers, by keyboard, and opens it', async () => {
    const root = createTestdir({ 'api/readme.md': '# api\n', 'site/readme.md': '# site\n' });
    onTestFinished(() => root.remove());
    const [api, site] = [join(root.path, 'api'), join(root.path, 'site')].map((path) => realpathSync(path));
    const web = await createWebHarness({ workspaces: [api!, site!], responses: [{ text: 'Started in **site**.' }] });
    const page = await signedInPage(browser(), web);
    const form = page.getByRole('form', { name: 'New session' });
    const folder = form.getByLabel('Workspace');
    // Only the offered folders can be chosen: there is nowhere to type a path.
    expect(await folder.locator('option').allTextContents()).toEqual([api, site]);
    expect(await form.locator('input').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'new-session');

    await folder.focus();
    await folder.selectOption(site!);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-session-prompt');
    await page.keyboard.type('look at the site');
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Assistant' }).locator('strong', { hasText: 'site' }).waitFor();
    const sessionId = /#\/sessions\/(.+)$/.exec(page.url())![1]!;
    expect((await web.store.requireSession(sessionId)).workspaceRoot).toBe(site);
    expect(await page.getByRole('region', { name: 'Prompt' }).textContent()).toBe('Youlook at the site');
  });

  it('says how to offer a folder when the server was started with none', async () => {
    const web = await createWebHarness();
    const page = await signedInPage(browser(), web);
    await page.getByText('To start sessions here, start `clawsmith web` in the folder to work in.').waitFor();
    expect(await page.getByRole('form', { name: 'New session' }).count()).toBe(0);
  });

  it('finds a session by its first prompt after it was renamed, and by its folder', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    mkdirSync(join(workspace.path, 'elsewhere'));
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const renamed = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'migrate the billing tables',
      responses: [{ text: 'Migrated.' }],
    });
    await scriptedTurn(home.path, {
      workspace: join(workspace.path, 'elsewhere'),
      prompt: 'write the changelog',
      responses: [{ text: 'Written.' }],
    });
    const web = await createWebHarness({ homePath: home.path });
    expect(
      (await web.api(`/api/sessions/${renamed}`, { method: 'PATCH', json: { title: 'Tuesday work' } })).status,
    ).toBe(200);
    const page = await signedInPage(browser(), web);
    const rows = page.locator('.session-list > ul > li > a');
    await expect.poll(() => rows.count()).toBe(2);
    const search = page.getByLabel('Search sessions');
    await search.fill('BILLING');
    await expect.poll(() => rows.allTextContents()).toEqual(['Tuesday work']);
    await search.fill('elsewhere');
    await expect.poll(() => rows.allTextContents()).toEqual(['write the changelog']);
    await search.fill('nothing like this');
    await page.getByText('No sessions match the search.').waitFor();
  });
});
