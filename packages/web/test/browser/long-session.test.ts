import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import {
  SCREENSHOTS,
  screenshot,
  scriptedTurn,
  signedInPage,
  useBrowser,
  BROWSER_TEST_TIMEOUT,
} from './browser-harness.js';

const browser = useBrowser();

/** 48 model steps of 35 read_file calls each, then a final answer: about 5,200 events per turn. */
function longTurn(label: string, finalText: string): unknown[] {
  const responses: unknown[] = [];
  for (let step = 0; step < 48; step += 1)
    responses.push({
      text: `${label} step ${step}`,
      toolCalls: Array.from({ length: 35 }, (_, call) => ({
        id: `${label}_${step}_${call}`,
        name: 'read_file',
        arguments: { path: `f${call}.txt` },
      })),
    });
  responses.push({ text: finalText });
  return responses;
}

describe('a long session', { timeout: 4 * BROWSER_TEST_TIMEOUT }, () => {
  it('opens 10,000+ events at the end, pages older events in on scroll, and keeps the DOM small', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const files = Object.fromEntries(Array.from({ length: 35 }, (_, index) => [`f${index}.txt`, `file ${index}\n`]));
    const workspace = createTestdir(files);
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'the very first prompt',
      responses: longTurn('one', 'first half done'),
    });
    await scriptedTurn(home.path, {
      workspace: workspace.path,
      session,
      prompt: 'the second prompt',
      responses: longTurn('two', 'the end of a long session'),
    });
    const web = await createWebHarness({ homePath: home.path });
    const head = (await (await web.api(`/api/sessions/${session}/events?limit=1`)).json()) as { lastSequence: number };
    expect(head.lastSequence).toBeGreaterThanOrEqual(10_000);

    const page = await signedInPage(browser(), web);
    await page.goto('about:blank');
    await page.goto(`${web.server.origin}/#/sessions/${session}`);
    await page.getByText('the end of a long session').waitFor();
    const firstView = await page.evaluate(() => ({
      firstContentfulPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      transcriptEndVisibleMs: performance.now(),
      domNodes: document.getElementsByTagName('*').length,
    }));

    // Only the newest page is loaded at first; scrolling to the top pages older events in, one page at a time.
    const oldest = () => page.locator('.transcript').evaluate((element) => Number(element.dataset.oldestSequence));
    const firstOldest = await oldest();
    expect(firstOldest).toBeGreaterThan(head.lastSequence - 400);
    let pages = 0;
    let largestDom = firstView.domNodes;
    for (let current = firstOldest; current > 1 && pages < 200; pages += 1) {
      await page.locator('.transcript').evaluate((element) => element.scrollTo(0, 0));
      const before = current;
      await expect.poll(oldest, { timeout: 15_000 }).toBeLessThan(before);
      current = await oldest();
      largestDom = Math.max(largestDom, await page.evaluate(() => document.getElementsByTagName('*').length));
    }
    expect(await oldest()).toBe(1);
    // The last page loaded keeps the reader where they were; at the top again, the first prompt shows.
    await page.locator('.transcript').evaluate((element) => element.scrollTo(0, 0));
    await page.getByRole('log', { name: 'Transcript' }).getByText('the very first prompt').waitFor();
    await page.locator('.transcript').evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await page.getByText('the end of a long session').waitFor();
    const domAfterEnd = await page.evaluate(() => document.getElementsByTagName('*').length);
    await screenshot(page, 'long-session');

    const figures = {
      events: head.lastSequence,
      ...firstView,
      olderPagesLoaded: pages,
      largestDomWhilePaging: largestDom,
      domNodesAfterScrollingToEnd: domAfterEnd,
    };
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(join(SCREENSHOTS, '..', 'long-session-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('long session figures', figures);
    expect(domAfterEnd).toBeLessThan(3_000);
    expect(largestDom).toBeLessThan(3_000);
    // A generous guard only (the figure is reported above): the target is 1.5 s on an idle machine.
    expect(firstView.transcriptEndVisibleMs).toBeLessThan(20_000);
  });
});
