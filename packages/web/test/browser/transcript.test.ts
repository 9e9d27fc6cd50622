import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import {
  clawsmithRun,
  expandToolCard,
  screenshot,
  scriptedTurn,
  signedInPage,
  useBrowser,
  BROWSER_TEST_TIMEOUT,
} from './browser-harness.js';

const browser = useBrowser();

function folders(files: Record<string, string> = {}) {
  const home = createTestdir({}, 'clawsmith-home-');
  const workspace = createTestdir(files);
  onTestFinished(() => {
    home.remove();
    workspace.remove();
  });
  return { home: home.path, workspace: workspace.path };
}

const TOUR_TURN = [
  {
    text: 'Let me look around.',
    toolCalls: [
      { id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } },
      { id: 'c2', name: 'run_command', arguments: { command: 'echo built; exit 3' } },
      { id: 'c3', name: 'edit_file', arguments: { path: 'a.txt', oldText: 'world', newText: 'there' } },
      { id: 'c4', name: 'search_files', arguments: { query: 'hello' } },
      { id: 'c5', name: 'no_such_tool', arguments: {} },
      { id: 'c6', name: 'todo_write', arguments: { todos: [{ content: 'check the page', status: 'in_progress' }] } },
    ],
  },
  { text: 'All done with the tour.' },
];

describe('the session list and the transcript', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('lists sessions newest first, filters them, and shows one call card per status and display kind', async () => {
    const { home, workspace } = folders({ 'a.txt': 'hello\nworld\n', 'b.txt': 'hello again\n' });
    const older = await scriptedTurn(home, { workspace, prompt: 'an older session', responses: [{ text: 'ok' }] });
    const tour = await scriptedTurn(home, { workspace, prompt: 'take the tour', responses: TOUR_TURN });
    await scriptedTurn(home, {
      workspace,
      session: tour,
      prompt: 'now try to write',
      permissionMode: 'read-only',
      responses: [
        { toolCalls: [{ id: 'd1', name: 'write_file', arguments: { path: 'c.txt', content: 'new\n' } }] },
        { text: 'I was not allowed.' },
      ],
    });
    const web = await createWebHarness({ homePath: home });
    const page = await signedInPage(browser(), web);

    const rows = page.locator('.session-row a');
    await expect.poll(() => rows.allTextContents()).toEqual(['take the tour', 'an older session']);
    await screenshot(page, 'session-list');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Search sessions').fill('older');
    await expect.poll(() => rows.allTextContents()).toEqual(['an older session']);
    expect(await page.locator(`a[href="#/sessions/${older}"]`).count()).toBe(1);
    await page.getByLabel('Search sessions').fill('');
    await page.getByRole('link', { name: 'take the tour' }).click();

    const card = (name: string, status: string) => page.getByRole('article', { name: `Tool call ${name}: ${status}` });
    await card('read_file', 'success').waitFor();
    // The session opens at its end, where the denied call is; the transcript is virtualized, so it
    // is counted before opening the earlier cards scrolls it out of the rendered rows.
    await expect.poll(() => card('write_file', 'denied').count()).toBe(1);
    for (const [name, status] of [
      ['read_file', 'success'],
      ['run_command', 'error'],
      ['edit_file', 'success'],
      ['search_files', 'success'],
    ] as const)
      await expandToolCard(card(name, status));
    await expect.poll(() => card('read_file', 'success').locator('pre').first().textContent()).toBe('hello\nworld\n');
    const command = card('run_command', 'error');
    await expect.poll(() => command.locator('.badge.exit').textContent()).toBe('exit code 3');
    expect(await command.locator('.badge.code').textContent()).toBe('command_failed');
    expect(await command.locator('.badge.duration').textContent()).toMatch(/^\d+ ms$/);
    expect(await card('edit_file', 'success').locator('.diff-line.added').allTextContents()).toEqual(['+there\n']);
    expect(await card('edit_file', 'success').locator('.diff-line.removed').allTextContents()).toEqual(['-world\n']);
    expect(await card('search_files', 'success').locator('.hits li').count()).toBe(2);
    expect(await card('no_such_tool', 'error').locator('.badge.code').textContent()).toBe('unknown_tool');
    expect(await page.getByText('All done with the tour.').count()).toBe(1);
    expect(await page.locator('.todos li').textContent()).toContain('check the page');
    await screenshot(page, 'session-view');
    await page.getByRole('button', { name: /modified a\.txt/ }).click();
    await page.locator('.file-row .diff').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a turn that a separate `clawsmith run` process runs, as it happens, without reloading', async () => {
    const { home, workspace } = folders({ 'a.txt': 'a\n' });
    const session = await scriptedTurn(home, { workspace, prompt: 'first', responses: [{ text: 'first answer' }] });
    const web = await createWebHarness({ homePath: home });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByText('first answer').waitFor();
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));

    const run = clawsmithRun(home, {
      workspace,
      session,
      prompt: 'from the terminal',
      responses: [
        { toolCalls: [{ id: 't1', name: 'run_command', arguments: { command: 'sleep 1; echo slow' } }] },
        { text: 'written by another process' },
      ],
    });
    // The command's card shows up while the other process still runs it.
    await page.getByRole('article', { name: 'Tool call run_command: running' }).waitFor({ timeout: 20_000 });
    await page.getByText('written by another process').waitFor({ timeout: 30_000 });
    expect((await run).code).toBe(0);
    expect(await page.getByRole('article', { name: 'Tool call run_command: success' }).count()).toBe(1);
    expect(navigations).toBe(0);
  });

  it('shows a call that a killed process left open as unknown (interrupted) once a later run recovers the session', async () => {
    const { home, workspace } = folders({ 'a.txt': 'a\n' });
    const session = await scriptedTurn(home, { workspace, prompt: 'first', responses: [{ text: 'first answer' }] });
    const web = await createWebHarness({ homePath: home });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByText('first answer').waitFor();
    const doomed = clawsmithRun(home, {
      workspace,
      session,
      prompt: 'this process will be killed',
      responses: [{ toolCalls: [{ id: 'k1', name: 'run_command', arguments: { command: 'sleep 60' } }] }],
    });
    await page.getByRole('article', { name: 'Tool call run_command: running' }).waitFor({ timeout: 30_000 });
    doomed.kill('SIGKILL');
    await doomed;
    await scriptedTurn(home, { workspace, session, prompt: 'after the crash', responses: [{ text: 'recovered' }] });
    const card = page.getByRole('article', { name: 'Tool call run_command: unknown' });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.badge.code').textContent()).toBe('interrupted');
    await page.getByText('recovered', { exact: true }).waitFor();
  });
});
