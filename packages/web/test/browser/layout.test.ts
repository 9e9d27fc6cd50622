import { createTestdir } from '@clawsmith/test-utils';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import {
  markdownRendered,
  screenshot,
  scriptedTurn,
  signedInPage,
  useBrowser,
  BROWSER_TEST_TIMEOUT,
} from './browser-harness.js';

const browser = useBrowser();

/** A session long enough to scroll: a dozen reads, optionally a todo list, then a closing answer. */
async function longTurnSession(withTodos: boolean) {
  const home = createTestdir({}, 'clawsmith-home-');
  const workspace = createTestdir({ 'a.txt': 'hello\nworld\n' });
  onTestFinished(() => {
    home.remove();
    workspace.remove();
  });
  // Tool cards are one line each: 40 of them make a transcript taller than the view.
  const reads = Array.from({ length: 40 }, (_, index) => ({
    id: `r${index}`,
    name: 'read_file',
    arguments: { path: 'a.txt' },
  }));
  const todos = {
    id: 't1',
    name: 'todo_write',
    arguments: { todos: [{ content: 'check the layout', status: 'pending' }] },
  };
  const session = await scriptedTurn(home.path, {
    workspace: workspace.path,
    prompt: 'read a lot',
    responses: [
      { text: 'Reading.', toolCalls: withTodos ? [...reads, todos] : reads },
      { text: 'The very last words.' },
    ],
  });
  const web = await createWebHarness({ homePath: home.path });
  return { web, session };
}

/** Width and box of an element the test names by role. */
async function box(page: Page, role: 'log' | 'region', name: string) {
  return (await page.getByRole(role, { name }).boundingBox())!;
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const distanceFromEnd = (page: Page) =>
  page
    .getByRole('log', { name: 'Transcript' })
    .evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);

describe('the session view on narrow and wide screens', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('at 420 px gives the transcript the width and puts the todos below it', async () => {
    const { web, session } = await longTurnSession(true);
    const page = await signedInPage(browser(), web);
    await page.setViewportSize({ width: 420, height: 800 });
    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    await page.getByText('The very last words.').waitFor();
    const transcript = await box(page, 'log', 'Transcript');
    expect(transcript.width).toBeGreaterThanOrEqual(380);
    // Tall enough to read too: most of the screen, with the prompt box below it.
    expect(transcript.height).toBeGreaterThanOrEqual(500);
    const todos = await box(page, 'region', 'Todos');
    expect(todos.y).toBeGreaterThanOrEqual(transcript.y + transcript.height);
    expect(todos.width).toBeGreaterThanOrEqual(380);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'session-420');
  });

  it('at 360 px still fits without sideways scrolling', async () => {
    const { web, session } = await longTurnSession(true);
    const page = await signedInPage(browser(), web);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    await page.getByText('The very last words.').waitFor();
    expect((await box(page, 'log', 'Transcript')).width).toBeGreaterThanOrEqual(320);
    expect(await horizontalOverflow(page)).toBe(0);
  });

  it('at 800 px without todos has no side panel taking room', async () => {
    const { web, session } = await longTurnSession(false);
    const page = await signedInPage(browser(), web);
    await page.setViewportSize({ width: 800, height: 800 });
    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    await page.getByText('The very last words.').waitFor();
    expect(await page.getByRole('heading', { name: 'Todos' }).count()).toBe(0);
    // The session list sits beside it; the transcript takes all the rest of the row.
    const transcript = await box(page, 'log', 'Transcript');
    const sidebar = (await page.getByRole('navigation', { name: 'Sessions' }).boundingBox())!;
    expect(transcript.x + transcript.width).toBeGreaterThanOrEqual(800 - 20);
    expect(transcript.width).toBeGreaterThanOrEqual(800 - sidebar.width - 60);
  });

  it('opens a session scrolled to its very end', async () => {
    const { web, session } = await longTurnSession(true);
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByText('The very last words.').waitFor();
    await markdownRendered(page);
    const transcript = page.getByRole('log', { name: 'Transcript' });
    // The content is taller than the view, so "at the end" is a real position, not the top.
    expect(await transcript.evaluate((element) => element.scrollHeight > element.clientHeight * 1.5)).toBe(true);
    await expect.poll(() => distanceFromEnd(page)).toBeLessThanOrEqual(1);
    const last = (await page.getByText('The very last words.').boundingBox())!;
    const view = (await transcript.boundingBox())!;
    expect(last.y + last.height).toBeLessThanOrEqual(view.y + view.height);
  });

  it('follows the system theme, dark or light, with readable contrast in both', async () => {
    const { web, session } = await longTurnSession(true);
    const page = await signedInPage(browser(), web);
    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    await page.getByText('The very last words.').waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(13, 17, 23)');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'session-dark');
  });
});
