import { createTestdir } from '@clawsmith/test-utils';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

interface Stop {
  readonly what: string;
  readonly outline: string;
}

/** Presses Tab until focus leaves the page's controls (or comes back round), noting each stop and its focus ring. */
async function tabStops(page: Page): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let press = 0; press < 80; press += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return undefined;
      const style = getComputedStyle(element);
      const name =
        element.getAttribute('aria-label') ??
        (element as HTMLInputElement).labels?.[0]?.textContent ??
        element.textContent ??
        '';
      return {
        what: `${element.tagName.toLowerCase()}${element.getAttribute('role') ? `[${element.getAttribute('role')}]` : ''} ${name.trim().slice(0, 40)}`,
        outline: `${style.outlineStyle} ${style.outlineWidth}`,
      };
    });
    if (stop === undefined || stops.some((seen) => seen.what === stop.what)) break;
    stops.push(stop);
  }
  return stops;
}

describe('the keyboard', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('reaches every control of a session in reading order, each with a visible focus ring, and works them', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'a.txt': 'hello\n' });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'add b',
      responses: [
        { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'b.txt', content: 'new\n' } }] },
        { text: 'Added it, see [the guide](https://example.com/guide).' },
      ],
    });
    const web = await createWebHarness({ homePath: home.path, responses: [{ text: 'Sent by keyboard.' }] });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);
    await page.getByRole('link', { name: 'the guide' }).waitFor();

    const stops = await tabStops(page);
    const order = stops.map((stop) => stop.what);
    const expected = [
      'a clawsmith',
      'button Fork session',
      'div[log] Transcript',
      'button ▸write_file',
      'a the guide',
      'button ▸ created b.txt',
      'input Both',
      'button Restore…',
      'button Fork after turn 1',
      'textarea Prompt for a new turn',
    ];
    let previous = -1;
    for (const control of expected) {
      const index = order.findIndex((what) => what.startsWith(control));
      expect(index, `${control} in ${JSON.stringify(order)}`).toBeGreaterThan(previous);
      previous = index;
    }
    for (const stop of stops) expect(stop.outline, stop.what).toMatch(/^solid [23]px$/);

    // Working them: a tool card and a file diff open with Enter; the restore question opens with
    // Enter, Escape closes it and focus returns to its button; Enter in the prompt box sends.
    await page.getByRole('button', { name: /^write_file/ }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.tool-details').waitFor();
    await page.getByRole('button', { name: /created b\.txt/ }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.file-row .diff').waitFor();
    await page.getByRole('button', { name: 'Restore…' }).focus();
    await page.keyboard.press('Enter');
    const question = page.getByRole('alertdialog', { name: 'Confirm restore' });
    await question.waitFor();
    expect(await question.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Restore…');
    await page.getByRole('textbox', { name: 'Prompt for a new turn' }).focus();
    await page.keyboard.type('and again');
    await page.keyboard.press('Enter');
    await page.getByText('Sent by keyboard.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('reaches the new-session form and the search on the session list', async () => {
    const root = createTestdir({});
    onTestFinished(() => root.remove());
    const web = await createWebHarness({ workspaces: [root.path] });
    const page = await signedInPage(browser(), web);
    await page.getByRole('form', { name: 'New session' }).waitFor();
    const order = (await tabStops(page)).map((stop) => stop.what);
    expect(order[0]).toBe('a clawsmith');
    expect(order.findIndex((what) => what.startsWith('textarea First prompt'))).toBeGreaterThan(0);
    expect(order.findIndex((what) => what.startsWith('input Search sessions'))).toBeGreaterThan(
      order.findIndex((what) => what.startsWith('textarea First prompt')),
    );
  });
});
