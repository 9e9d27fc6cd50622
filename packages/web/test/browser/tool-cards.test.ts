import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { screenshot, scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

describe('tool cards', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('are one line (name, status, target, size, duration) that expands on click and on Enter', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'notes.txt': 'alpha\nbeta\ngamma\n' });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'look around',
      responses: [
        {
          toolCalls: [
            { id: 'r1', name: 'read_file', arguments: { path: 'notes.txt' } },
            { id: 'c1', name: 'run_command', arguments: { command: 'printf "one\\ntwo\\n"' } },
          ],
        },
        { text: 'Looked.' },
      ],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    const read = page.getByRole('article', { name: 'Tool call read_file: success' });
    const command = page.getByRole('article', { name: 'Tool call run_command: success' });
    await page.getByText('Looked.').waitFor();

    // Collapsed: one line, no details in the DOM.
    const readLine = read.getByRole('button', { expanded: false });
    expect(await readLine.textContent()).toMatch(/^▸read_file success Read notes\.txt 3 lines · 17 B · [\d.]+ m?s$/);
    const box = await readLine.boundingBox();
    expect(box!.height).toBeLessThan(40);
    expect(await read.locator('.tool-details').count()).toBe(0);
    expect(await command.getByRole('button').textContent()).toMatch(
      /^▸run_command success \$ printf "one\\ntwo\\n" \d+ lines · \d+ B · \d+ ms$/,
    );

    // A click opens it; a second click closes it again.
    await readLine.click();
    const openRead = read.getByRole('button', { expanded: true });
    expect(await openRead.textContent()).toMatch(/^▾read_file/);
    await expect.poll(() => read.locator('.tool-details pre').first().textContent()).toBe('alpha\nbeta\ngamma\n');
    const detailsId = await openRead.getAttribute('aria-controls');
    expect(await page.locator(`#${detailsId}`).count()).toBe(1);
    await openRead.click();
    expect(await read.locator('.tool-details').count()).toBe(0);

    // The keyboard: focus the line, Enter opens, Enter closes.
    await command.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await command.locator('.tool-details .badge.exit').waitFor();
    expect(await command.locator('.badge.exit').textContent()).toBe('exit code 0');
    expect(await command.locator('.tool-details pre').textContent()).toContain('one\ntwo');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'tool-card-open');
    await page.keyboard.press('Enter');
    expect(await command.locator('.tool-details').count()).toBe(0);
  });

  it('stay open after the card was scrolled out of the DOM and back', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'a.txt': 'the first file\n' });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const filler = Array.from({ length: 120 }, (_, index) => `paragraph ${index}`).join('\n\n');
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'read then talk',
      responses: [{ toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: filler }],
    });
    for (let turn = 0; turn < 2; turn += 1)
      await scriptedTurn(home.path, {
        workspace: workspace.path,
        session,
        prompt: `more ${turn}`,
        responses: [{ text: filler }],
      });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    const transcript = page.locator('.transcript');
    await page.getByText('more 1').waitFor();
    const read = page.getByRole('article', { name: 'Tool call read_file: success' });
    await transcript.evaluate((element) => element.scrollTo(0, 0));
    await read.getByRole('button', { expanded: false }).click();
    await read.locator('.tool-details').waitFor();

    await transcript.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect.poll(() => read.count()).toBe(0);
    await transcript.evaluate((element) => element.scrollTo(0, 0));
    await read.waitFor();
    expect(await read.getByRole('button').getAttribute('aria-expanded')).toBe('true');
    expect(await read.locator('.tool-details pre').first().textContent()).toBe('the first file\n');
  });
});
