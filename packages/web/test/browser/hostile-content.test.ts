import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import {
  expandToolCard,
  screenshot,
  scriptedTurn,
  signedInPage,
  useBrowser,
  BROWSER_TEST_TIMEOUT,
} from './browser-harness.js';

const browser = useBrowser();

const SCRIPT_TAG = '<script>window.__pwned = "script"</script>';
const IMAGE_TAG = '<img src=x onerror="window.__pwned = \'img\'; alert(1)">';
const LINK = '<a href="javascript:alert(1)">click me</a> [click](javascript:alert(2))';
const ESCAPES = '\u001b]0;stolen title\u0007\u001b[31mred\u001b[0m \u001b[2J';
const RIGHT_TO_LEFT = 'invoice\u202Etxt.exe';
const LONG_LINE = 'A'.repeat(1_000_000);

describe('hostile content from models and tools', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('renders as literal, bounded text: no dialog, no request for x, no script runs', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'page.html': `${SCRIPT_TAG}\n${IMAGE_TAG}\n` });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const hostile = [SCRIPT_TAG, IMAGE_TAG, LINK, ESCAPES, RIGHT_TO_LEFT].join('\n');
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: `review ${IMAGE_TAG}`,
      responses: [
        {
          text: hostile,
          toolCalls: [
            { id: 'h1', name: 'read_file', arguments: { path: 'page.html' } },
            {
              id: 'h2',
              name: 'run_command',
              arguments: { command: `printf '%s\\n' '${IMAGE_TAG.replace(/'/g, "'\\''")}'` },
            },
            { id: 'h3', name: 'write_file', arguments: { path: 'evil.html', content: `${hostile}\n` } },
          ],
        },
        { text: LONG_LINE },
      ],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web);
    const dialogs: string[] = [];
    const foreignRequests: string[] = [];
    const consoleMessages: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== web.server.origin || url.pathname === '/x' || url.protocol === 'javascript:')
        foreignRequests.push(request.url());
    });
    page.on('console', (message) => consoleMessages.push(message.text()));

    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    await page.getByRole('article', { name: 'Tool call write_file: success' }).waitFor();
    await page.getByRole('button', { name: /^created evil\.html/ }).click();
    await page.locator('.file-row .diff').waitFor();
    await page.locator('.transcript').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await page.getByText('more characters not shown').first().waitFor();

    const assistant = page.getByRole('region', { name: 'Assistant' }).first();
    const text = (await assistant.textContent()) ?? '';
    expect(text).toContain(SCRIPT_TAG);
    expect(text).toContain(IMAGE_TAG);
    expect(text).toContain('javascript:alert(1)');
    // Escape sequences and the right-to-left override are shown, not obeyed.
    expect(text).toContain('␛]0;stolen title␇␛[31mred␛[0m ␛[2J');
    expect(text).toContain('invoice<U+202E>txt.exe');
    await expandToolCard(page.getByRole('article', { name: 'Tool call read_file: success' }));
    await expandToolCard(page.getByRole('article', { name: 'Tool call run_command: success' }));
    expect(await page.getByRole('article', { name: 'Tool call read_file: success' }).textContent()).toContain(
      IMAGE_TAG,
    );
    expect(await page.getByRole('article', { name: 'Tool call run_command: success' }).textContent()).toContain(
      IMAGE_TAG,
    );
    expect(await page.locator('.file-row .diff').textContent()).toContain(`+${SCRIPT_TAG}`);

    // The 1 MB line is bounded: the page holds a slice of it and says how much it left out.
    const longest = await page.evaluate(() =>
      Math.max(...[...document.querySelectorAll('pre')].map((element) => element.textContent?.length ?? 0)),
    );
    expect(longest).toBeLessThanOrEqual(20_000);
    expect(await page.getByText('980,000 more characters not shown').count()).toBe(1);

    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await page.locator('main img, main script, main a[href^="javascript:"]').count()).toBe(0);
    expect(await page.title()).toBe('clawsmith');
    expect(dialogs).toEqual([]);
    expect(foreignRequests).toEqual([]);
    expect(consoleMessages.filter((message) => /Content Security Policy|pwned/i.test(message))).toEqual([]);
    await screenshot(page, 'hostile-content');
  });
});
