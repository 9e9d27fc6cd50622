import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

describe('the prompt box keys', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('breaks a line on Shift+Enter and sends on Enter', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({});
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'the first turn',
      responses: [{ text: 'first turn done' }],
    });
    const web = await createWebHarness({ homePath: home.path, responses: [{ text: 'Got both lines.' }] });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByText('first turn done').waitFor();
    const box = page.getByRole('textbox', { name: 'Prompt for a new turn' });
    expect(await box.getAttribute('aria-describedby')).toBe('prompt-keys');
    expect(await page.locator('#prompt-keys').textContent()).toBe('Enter sends · Shift+Enter starts a new line');

    await box.focus();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    // Shift+Enter only broke the line: nothing was sent.
    expect(await box.inputValue()).toBe('first line\nsecond line');
    expect(await page.getByRole('region', { name: 'Prompt' }).count()).toBe(1);

    await page.keyboard.press('Enter');
    await page.getByText('Got both lines.').waitFor();
    expect(await box.inputValue()).toBe('');
    const prompts = await page.getByRole('region', { name: 'Prompt' }).allTextContents();
    expect(prompts.at(-1)).toBe('Youfirst line\nsecond line');
  });
});
