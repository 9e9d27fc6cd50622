import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { screenshot, scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

const MARKDOWN = [
  '## Plan',
  '',
  'This is **bold**, *slanted* and `inline code`.',
  '',
  '- first item',
  '- second item',
  '',
  '| file | lines |',
  '| --- | --- |',
  '| a.ts | 12 |',
  '',
  'See [the docs](https://example.com/docs) or mail [us](mailto:team@example.com).',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  '```',
].join('\n');

const HOSTILE_MARKDOWN = [
  '[run me](javascript:alert(1)) [data](data:text/html,<script>alert(2)</script>) [api](/api/logout)',
  '',
  '![tracker](http://127.0.0.1:9/pixel.png) <img src=x onerror="window.__pwned = 1">',
  '',
  '<a href="javascript:alert(3)">raw link</a> <script>window.__pwned = 2</script>',
].join('\n');

describe('assistant text as Markdown', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('renders headings, emphasis, lists, tables, links with their target, and highlights a code block', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'explain',
      responses: [{ text: MARKDOWN }],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    const assistant = page.getByRole('region', { name: 'Assistant' });
    await assistant.getByRole('heading', { name: 'Plan' }).waitFor();

    expect(await assistant.locator('strong').textContent()).toBe('bold');
    expect(await assistant.locator('em').textContent()).toBe('slanted');
    expect(await assistant.locator('p code').textContent()).toBe('inline code');
    expect(await assistant.getByRole('listitem').allTextContents()).toEqual(['first item', 'second item']);
    expect(await assistant.getByRole('cell', { name: '12' }).count()).toBe(1);
    const docs = assistant.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://example.com/docs');
    expect(await docs.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await assistant.textContent()).toContain('the docs (https://example.com/docs)');
    expect(await assistant.textContent()).toContain('us (team@example.com)');

    // The highlighter is its own chunk, fetched once a code block is on screen.
    const block = assistant.locator('pre.code-block[data-language="ts"]');
    await block.and(page.locator('[data-highlighted="true"]')).waitFor();
    expect(await block.locator('.hljs-keyword').first().textContent()).toBe('const');
    expect(await block.locator('.hljs-comment').textContent()).toBe('// the answer');
    expect(await block.textContent()).toBe('const answer: number = 42; // the answer');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'markdown');
  });

  it('keeps hostile links and images inert: no javascript:, data: or relative link, no image request', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'hostile',
      responses: [{ text: HOSTILE_MARKDOWN }],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web);
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== web.server.origin || !/^\/(api|assets)\/|^\/$/.test(url.pathname))
        requests.push(request.url());
    });
    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    const assistant = page.getByRole('region', { name: 'Assistant' });
    await assistant.getByText('run me').waitFor();
    await assistant.locator('.link-dropped').first().waitFor();

    expect(await assistant.locator('a').count()).toBe(0);
    expect(await assistant.locator('.link-dropped').allTextContents()).toEqual(['run me', 'data', 'api']);
    expect(await assistant.locator('img, script').count()).toBe(0);
    const text = (await assistant.textContent()) ?? '';
    expect(text).toContain('[image: tracker — http://127.0.0.1:9/pixel.png]');
    expect(text).toContain('<img src=x onerror="window.__pwned = 1">');
    expect(text).toContain('<a href="javascript:alert(3)">raw link</a>');
    expect(text).toContain('<script>window.__pwned = 2</script>');
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
  });
});
