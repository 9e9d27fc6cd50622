import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { preparedOncePerFile } from '@clawsmith/test-utils';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { clawsmithRun, scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

/**
 * A home with two finished sessions written by real `clawsmith run` processes, once for the file;
 * each test gets the home and workspace back as they left them, and a web server of its own.
 */
const sessions = preparedOncePerFile(['home', 'workspace'], async ({ home, workspace }) => {
  writeFileSync(join(workspace, 'a.txt'), 'hello\n');
  const parser = await scriptedTurn(home, {
    workspace,
    prompt: 'fix the parser',
    responses: [{ text: 'Parser fixed.' }],
  });
  const changelog = await scriptedTurn(home, {
    workspace,
    prompt: 'write the changelog',
    responses: [{ text: 'Changelog written.' }],
  });
  return { parser, changelog };
});

async function twoSessions() {
  const prepared = sessions();
  const web = await createWebHarness({ homePath: prepared.home });
  return { ...prepared, web };
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });

/** The sidebar's links in order, the open one marked with a leading `*`. */
const sidebarLinks = (page: Page) =>
  sidebar(page)
    .locator('li > a')
    .evaluateAll((links) =>
      links.map((link) => `${link.getAttribute('aria-current') === 'page' ? '*' : ''}${link.textContent}`),
    );

/** The sidebar's top-level rows as `title: status`, read in one go (no wait for a row that is not there yet). */
const sidebarStatuses = (page: Page) =>
  sidebar(page)
    .locator('ul > li.sidebar-row')
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          `${row.querySelector(':scope > a')?.textContent}: ${row.querySelector(':scope > .badge')?.textContent}`,
      ),
    );

describe('the session sidebar', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('lists the sessions beside the open one, marks it, and opens another from the keyboard', async () => {
    const { web, parser } = await twoSessions();
    const page = await signedInPage(browser(), web, `#/sessions/${parser}`);
    await page.getByText('Parser fixed.').waitFor();
    await expect.poll(() => sidebarLinks(page)).toEqual(['write the changelog', '*fix the parser']);

    // Beside the session, not above it: the transcript starts right of the sidebar, at the same height.
    const side = (await sidebar(page).boundingBox())!;
    const transcript = (await page.getByRole('log', { name: 'Transcript' }).boundingBox())!;
    expect(transcript.x).toBeGreaterThanOrEqual(side.x + side.width);
    expect(transcript.y).toBeLessThan(side.y + side.height);

    // Tab reaches the sidebar's links; Enter on one opens that session and moves the mark.
    let focused = '';
    for (let press = 0; press < 20 && focused !== 'write the changelog'; press += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    expect(focused).toBe('write the changelog');
    await page.keyboard.press('Enter');
    await page.getByText('Changelog written.').waitFor();
    await expect.poll(() => sidebarLinks(page)).toEqual(['*write the changelog', 'fix the parser']);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('follows sessions another process starts and their status, and searches', async () => {
    const { home, workspace, web, parser } = await twoSessions();
    const page = await signedInPage(browser(), web, `#/sessions/${parser}`);
    await page.getByText('Parser fixed.').waitFor();
    await expect.poll(() => sidebarLinks(page)).toHaveLength(2);

    const elsewhere = clawsmithRun(home, {
      workspace,
      prompt: 'started in a terminal',
      responses: [{ text: 'Hello from the terminal.' }],
    });
    // The whole run on failure: its stderr says why it did not finish.
    expect(await elsewhere).toMatchObject({ code: 0 });
    await expect
      .poll(() => sidebarLinks(page), { timeout: 20_000 })
      .toEqual(['started in a terminal', 'write the changelog', '*fix the parser']);
    // `clawsmith run` names its session before the turn starts, so the listing that first shows it
    // may be one read in between (status `idle`); the list is read again every few seconds.
    await expect.poll(() => sidebarStatuses(page), { timeout: 20_000 }).toContain('started in a terminal: completed');

    // The search narrows the list; the open session stays listed so its mark is never lost.
    await sidebar(page).getByRole('searchbox', { name: 'Search sessions' }).fill('changelog');
    await expect.poll(() => sidebarLinks(page)).toEqual(['write the changelog', '*fix the parser']);
  });

  it('gives way below 760 px: the top bar leads to the full list instead', async () => {
    const { web, parser } = await twoSessions();
    const page = await signedInPage(browser(), web, `#/sessions/${parser}`);
    await page.setViewportSize({ width: 420, height: 800 });
    await page.getByText('Parser fixed.').waitFor();
    expect(await sidebar(page).isVisible()).toBe(false);
    const transcript = (await page.getByRole('log', { name: 'Transcript' }).boundingBox())!;
    expect(transcript.width).toBeGreaterThanOrEqual(380);
    await page.getByRole('link', { name: 'All sessions' }).click();
    await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor();
    // The heading shows before the list has loaded.
    await expect
      .poll(() => page.locator('.session-list > ul > li > a').allTextContents())
      .toEqual(['write the changelog', 'fix the parser']);
  });
});
