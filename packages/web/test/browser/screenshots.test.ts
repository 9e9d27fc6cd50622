// The main views at 1280 and 420 px, each checked (in view, no sideways scrolling, no serious axe
// violation) and photographed. `npm run screenshots` (this package) writes them to docs/, beside
// the README; a plain test run writes them to test-results/screenshots.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestdir } from '@clawsmith/test-utils';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import {
  markdownRendered,
  scriptedTurn,
  signedInPage,
  useBrowser,
  BROWSER_TEST_TIMEOUT,
  SCREENSHOTS,
} from './browser-harness.js';

const browser = useBrowser();

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const target = process.env.CLAWSMITH_SCREENSHOTS_TO_DOCS === '1' ? DOCS : SCREENSHOTS;
const WIDTHS = [1280, 420] as const;

/** Checks the view at `width` and saves it as `<name>-<width>.png`. */
async function photograph(page: Page, name: string, width: number, shows: Locator) {
  await page.setViewportSize({ width, height: 860 });
  await markdownRendered(page);
  await shows.scrollIntoViewIfNeeded();
  expect(await shows.isVisible()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  expect(await seriousViolations(page)).toEqual([]);
  mkdirSync(target, { recursive: true });
  await page.screenshot({ path: join(target, `${name}-${width}.png`) });
}

describe('screenshots of the main views', { timeout: BROWSER_TEST_TIMEOUT * 2 }, () => {
  it('shows the session list, a session, a restore confirmation and an inline approval at 1280 and 420 px', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'notes.md': '# Notes\n\nhello\nworld\n' });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'say hello',
      responses: [{ text: 'Hello! What shall we build?' }],
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'tidy the notes and plan the release',
      responses: [
        {
          text: 'Reading the notes first.',
          toolCalls: [
            { id: 'r1', name: 'read_file', arguments: { path: 'notes.md' } },
            { id: 'e1', name: 'edit_file', arguments: { path: 'notes.md', oldText: 'world', newText: 'there' } },
            { id: 'w1', name: 'write_file', arguments: { path: 'plan.md', content: '1. test\n2. tag\n3. publish\n' } },
            { id: 'c1', name: 'run_command', arguments: { command: 'wc -l notes.md plan.md' } },
            {
              id: 't1',
              name: 'todo_write',
              arguments: {
                todos: [
                  { content: 'tidy the notes', status: 'completed' },
                  { content: 'write the plan', status: 'in_progress' },
                ],
              },
            },
          ],
        },
        { text: 'The notes say "hello there" now, and plan.md lists the release steps.' },
      ],
    });
    const web = await createWebHarness({
      homePath: home.path,
      permissionMode: 'default',
      workspaces: [workspace.path],
      responses: [
        { toolCalls: [{ id: 'a1', name: 'run_command', arguments: { command: 'git tag v1.0.0' } }] },
        { text: 'Tagged.' },
      ],
    });
    const page = await signedInPage(browser(), web);
    for (const width of WIDTHS)
      await photograph(page, 'sessions', width, page.getByRole('heading', { name: 'Sessions' }));

    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    const last = page.getByText('plan.md lists the release steps');
    await last.waitFor();
    for (const width of WIDTHS) await photograph(page, 'session', width, last);

    const card = page.getByRole('region', { name: 'Checkpoint of turn 1' });
    await card.getByRole('button', { name: 'Restore…' }).click();
    const confirmation = card.getByRole('alertdialog', { name: 'Confirm restore' });
    for (const width of WIDTHS) await photograph(page, 'restore-confirmation', width, confirmation);
    await card.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('textbox', { name: 'Prompt for a new turn' }).fill('tag the release');
    await page.keyboard.press('Enter');
    const approval = page.getByRole('article', { name: 'Approval for run_command' });
    await approval.waitFor();
    for (const width of WIDTHS) await photograph(page, 'approval', width, approval);
    await approval.focus();
    await page.keyboard.press('d');
    await page.getByRole('article', { name: 'Tool call run_command: denied' }).waitFor();
  });
});
