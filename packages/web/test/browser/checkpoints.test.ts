import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir, preparedOncePerFile } from '@clawsmith/test-utils';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import {
  expandToolCard,
  screenshot,
  scriptedTurn,
  signedInPage,
  useBrowser,
  BROWSER_TEST_TIMEOUT,
} from './browser-harness.js';

const browser = useBrowser();

/**
 * A home and a workspace with one session whose only turn edits a.txt and writes b.txt, run once
 * for the file; each test gets both back as the turn left them, and a web server of its own.
 */
const edited = preparedOncePerFile(['home', 'workspace'], async ({ home, workspace }) => {
  writeFileSync(join(workspace, 'a.txt'), 'one\ntwo\nthree\n');
  const session = await scriptedTurn(home, {
    workspace,
    prompt: 'change the files',
    responses: [
      {
        toolCalls: [
          { id: 'e1', name: 'edit_file', arguments: { path: 'a.txt', oldText: 'two', newText: 'TWO\nand more' } },
          { id: 'e2', name: 'write_file', arguments: { path: 'b.txt', content: 'brand new\n' } },
        ],
      },
      { text: 'Changed a.txt and wrote b.txt.' },
    ],
  });
  return { session };
});

async function editedSession() {
  const { home, workspace, session } = edited();
  const web = await createWebHarness({ homePath: home });
  return { web, session, workspace };
}

function checkpoint(page: Page) {
  return page.getByRole('region', { name: 'Checkpoint of turn 1' });
}

async function restore(page: Page, scope: 'Conversation' | 'Files' | 'Both'): Promise<string> {
  const card = checkpoint(page);
  await card.getByRole('radio', { name: scope }).check();
  await card.getByRole('button', { name: 'Restore…' }).click();
  const confirmation = (await card.getByRole('alertdialog', { name: 'Confirm restore' }).textContent()) ?? '';
  await card.getByRole('button', { name: 'Confirm restore' }).click();
  return confirmation;
}

describe('checkpoint cards', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('shows the manifest and requests a file diff only when that file is expanded', async () => {
    const { web, session } = await editedSession();
    const page = await signedInPage(browser(), web);
    const diffRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/diff?')) diffRequests.push(new URL(request.url()).searchParams.get('path')!);
    });
    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    const card = checkpoint(page);
    await card.waitFor();
    expect(await card.locator('header .totals').textContent()).toBe('2 files +3 −1');
    expect(await card.getByRole('button', { name: /a\.txt/ }).textContent()).toBe('▸ modified a.txt +2 −1');
    expect(await card.locator('.diff').count()).toBe(0);
    expect(diffRequests).toEqual([]);

    await card.getByRole('button', { name: /a\.txt/ }).click();
    await card.locator('.diff').waitFor();
    expect(diffRequests).toEqual(['a.txt']);
    expect(await card.locator('.diff-line.added').allTextContents()).toEqual(['+TWO\n', '+and more\n']);
    expect(await card.locator('.diff-line.removed').allTextContents()).toEqual(['-two\n']);
    expect(await card.getByRole('button', { name: /a\.txt/ }).getAttribute('aria-expanded')).toBe('true');
    expect(await card.getByRole('button', { name: /a\.txt/ }).textContent()).toBe('▾ modified a.txt +2 −1');
    // Collapsing and expanding again reuses the diff already fetched.
    await card.getByRole('button', { name: /a\.txt/ }).click();
    await card.getByRole('button', { name: /a\.txt/ }).click();
    await card.locator('.diff').waitFor();
    expect(diffRequests).toEqual(['a.txt']);
    await screenshot(page, 'checkpoint-card');
  });

  it('restores the files only: the files go back, the conversation stays', async () => {
    const { web, session, workspace } = await editedSession();
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await checkpoint(page).waitFor();
    const confirmation = await restore(page, 'Files');
    expect(confirmation).toContain('2 files will be put back as they were before turn 1: a.txt, b.txt.');
    expect(confirmation).toContain('The conversation stays as it is.');
    await page.getByRole('status', { name: 'Restore result' }).waitFor();
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    await page.getByText('Restored the files to before a turn (files). Put back: a.txt, b.txt.').waitFor();
    expect(await page.getByText('Changed a.txt and wrote b.txt.').count()).toBe(1);
  });

  it('restores the conversation only: the turn leaves the transcript, the files stay', async () => {
    const { web, session, workspace } = await editedSession();
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await checkpoint(page).waitFor();
    const confirmation = await restore(page, 'Conversation');
    expect(confirmation).toContain('The conversation will go back to before turn 1');
    expect(confirmation).toContain('Files stay as they are.');
    await page.getByText('Restored the conversation to before a turn (session).').waitFor();
    expect(await page.getByText('Changed a.txt and wrote b.txt.').count()).toBe(0);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\nTWO\nand more\nthree\n');
  });

  it('restores both, after saying what will change', async () => {
    const { web, session, workspace } = await editedSession();
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await checkpoint(page).waitFor();
    const confirmation = await restore(page, 'Both');
    expect(confirmation).toContain('a.txt, b.txt');
    expect(confirmation).toContain('The conversation will go back to before turn 1: turn 1 leaves the transcript.');
    await page.getByText('Restored the files and the conversation to before a turn (all).').waitFor();
    expect(await page.getByText('Changed a.txt and wrote b.txt.').count()).toBe(0);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('lists every later turn and its files before restoring to before turn 1 of two, and keeps the result in view', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'write x',
      responses: [
        { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'x.txt', content: 'x\n' } }] },
        { text: 'Wrote x.txt.' },
      ],
    });
    await scriptedTurn(home.path, {
      workspace: workspace.path,
      session,
      prompt: 'write y',
      responses: [
        { toolCalls: [{ id: 'w2', name: 'write_file', arguments: { path: 'y.txt', content: 'y\n' } }] },
        { text: 'Wrote y.txt.' },
      ],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByRole('region', { name: 'Checkpoint of turn 2' }).waitFor();
    const card = checkpoint(page);
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('radio', { name: 'Files' }).check();
    await card.getByRole('button', { name: 'Restore…' }).click();
    const dialog = card.getByRole('alertdialog', { name: 'Confirm restore' });
    // The question is where the person looks: focused and inside the viewport.
    await expect.poll(() => dialog.evaluate((element) => element === document.activeElement)).toBe(true);
    const box = (await dialog.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    const said = (await dialog.textContent()) ?? '';
    expect(said).toContain('This undoes turns 1–2: this turn and every later one.');
    expect(said).toContain('2 files will be put back as they were before turn 1: x.txt, y.txt.');
    expect(said).toContain('A restore cannot be undone');
    expect(
      await dialog.getByRole('list', { name: 'Turns this restore undoes' }).locator('li').allTextContents(),
    ).toEqual(['Turn 1: write x — puts back x.txt', 'Turn 2: write y — puts back y.txt']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'restore-confirmation');
    await card.getByRole('button', { name: 'Confirm restore' }).click();

    const result = page.getByRole('status', { name: 'Restore result' });
    await result.waitFor();
    expect(await result.getByRole('list', { name: 'Files put back' }).locator('li').allTextContents()).toEqual([
      'x.txt',
      'y.txt',
    ]);
    expect(await result.textContent()).toContain('This restore cannot be undone');
    expect(existsSync(join(workspace.path, 'x.txt'))).toBe(false);
    expect(existsSync(join(workspace.path, 'y.txt'))).toBe(false);
    // The cards re-render as restored; the result stays until dismissed.
    await page.getByText('Restored the files to before a turn (files). Put back: x.txt, y.txt.').waitFor();
    await card.locator('.badge.undone').waitFor();
    expect(await result.isVisible()).toBe(true);
    await result.getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.getByRole('status', { name: 'Restore result' }).count()).toBe(0);
  });

  it('counts lines alike on the tool and checkpoint cards and heads created and deleted files with /dev/null', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'old.txt': 'first\nsecond\n' });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'create and delete',
      responses: [
        {
          toolCalls: [
            { id: 'w1', name: 'write_file', arguments: { path: 'five.txt', content: 'one\ntwo\nthree\nfour\nfive\n' } },
            { id: 'd1', name: 'delete_file', arguments: { path: 'old.txt' } },
          ],
        },
        { text: 'Created five.txt and deleted old.txt.' },
      ],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    const written = page.getByRole('article', { name: 'Tool call write_file: success' });
    const deleted = page.getByRole('article', { name: 'Tool call delete_file: success' });
    await written.waitFor();
    await expandToolCard(written);
    await expandToolCard(deleted);
    expect(await written.locator('.diff-totals').textContent()).toBe('+5 −0');
    expect(await deleted.locator('.diff-totals').textContent()).toBe('+0 −2');
    expect((await written.locator('.diff-line').allTextContents()).slice(0, 3)).toEqual([
      '--- /dev/null\n',
      '+++ b/five.txt\n',
      '@@ -0,0 +1,5 @@\n',
    ]);
    expect((await deleted.locator('.diff-line').allTextContents()).slice(0, 2)).toEqual([
      '--- a/old.txt\n',
      '+++ /dev/null\n',
    ]);
    // A content hash tells a person nothing: the write card shows the size only.
    expect(await written.locator('.fields dt').allTextContents()).toEqual(['bytes']);

    const card = checkpoint(page);
    await card.waitFor();
    expect(await card.getByRole('button', { name: /five\.txt/ }).textContent()).toBe('▸ created five.txt +5 −0');
    expect(await card.getByRole('button', { name: /old\.txt/ }).textContent()).toBe('▸ deleted old.txt +0 −2');
    await card.getByRole('button', { name: /five\.txt/ }).click();
    const diff = card.locator('.file-row').filter({ hasText: 'five.txt' }).locator('.diff');
    await diff.waitFor();
    expect(await diff.locator('.diff-totals').textContent()).toBe('+5 −0');
    expect((await diff.locator('.diff-line').allTextContents()).slice(0, 2)).toEqual([
      '--- /dev/null\n',
      '+++ b/five.txt\n',
    ]);
    await card.getByRole('button', { name: /old\.txt/ }).click();
    const gone = card.locator('.file-row').filter({ hasText: 'old.txt' }).locator('.diff');
    await gone.waitFor();
    expect((await gone.locator('.diff-line').allTextContents()).slice(0, 2)).toEqual([
      '--- a/old.txt\n',
      '+++ /dev/null\n',
    ]);
  });

  it('offers only the conversation on a turn that changed no file', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'just talk',
      responses: [{ text: 'Only words.' }],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    const card = checkpoint(page);
    await card.waitFor();
    expect(await card.getByRole('radio').count()).toBe(0);
    expect(await card.getByRole('group').count()).toBe(0);
    await card.getByRole('button', { name: 'Restore the conversation to before turn 1…' }).click();
    const said = (await card.getByRole('alertdialog', { name: 'Confirm restore' }).textContent()) ?? '';
    expect(said).toContain('Files stay as they are.');
    await card.getByRole('button', { name: 'Confirm restore' }).click();
    await page.getByText('Restored the conversation to before a turn (session).').waitFor();
    expect(await page.getByText('Only words.').count()).toBe(0);
  });

  it('shows the conflicting paths and changes nothing when the person edited a file after the turn', async () => {
    const { web, session, workspace } = await editedSession();
    writeFileSync(join(workspace, 'a.txt'), 'my own edit\n');
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await checkpoint(page).waitFor();
    await restore(page, 'Both');
    const conflict = page.getByRole('alert').filter({ hasText: 'Nothing was restored' });
    await conflict.waitFor();
    expect(await conflict.getByRole('list', { name: 'Conflicting paths' }).locator('li').allTextContents()).toEqual([
      'a.txt',
    ]);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('my own edit\n');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('brand new\n');
    expect(await page.getByText('Changed a.txt and wrote b.txt.').count()).toBe(1);
    await screenshot(page, 'restore-conflict');
  });
});
