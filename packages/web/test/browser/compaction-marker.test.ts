// A session whose model view was compacted shows where in the transcript, and each turn's tokens,
// while the transcript itself keeps every result.
import { createTestdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { expandToolCard, scriptedTurn, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

/** About 12 KB of distinct lines (about 4,000 tokens at the estimate's first ratio). */
const notes = (name: string) =>
  Array.from({ length: 270 }, (_, line) => `${name} line ${line}: words to fill the notes file`).join('\n');

describe('compaction in the transcript', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('marks where the model view was compacted and shows the turn’s tokens; every result is still shown', async () => {
    const home = createTestdir({}, 'clawsmith-home-');
    const workspace = createTestdir({ 'a.txt': notes('alpha'), 'b.txt': notes('bravo'), 'c.txt': notes('charlie') });
    onTestFinished(() => {
      home.remove();
      workspace.remove();
    });
    // Usage only on the last answer: reported usage calibrates the estimate, and these numbers are not real.
    const usage = { inputTokens: 1_234, outputTokens: 56, cacheReadTokens: 1_000 };
    const session = await scriptedTurn(home.path, {
      workspace: workspace.path,
      prompt: 'read the notes',
      // 24,000 tokens: the fourth request (tools and three files) passes 80 % of the usable window.
      extraArgs: ['--context-window', '24000'],
      responses: [
        { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'a.txt' } }] },
        { toolCalls: [{ id: 'r2', name: 'read_file', arguments: { path: 'b.txt' } }] },
        { toolCalls: [{ id: 'r3', name: 'read_file', arguments: { path: 'c.txt' } }] },
        { text: 'Read all three.', usage },
      ],
    });
    const web = await createWebHarness({ homePath: home.path });
    const page = await signedInPage(browser(), web, `#/sessions/${session}`);

    const marker = page.locator('.compaction-marker').first();
    await marker.waitFor();
    expect(await marker.textContent()).toMatch(
      /^Context compacted \(near the context window\): \d+ older tool results? now sent as a pointer to its artifact\. About [\d,]+ → [\d,]+ of 24,000 tokens\. The transcript keeps everything\.$/,
    );
    await expect
      .poll(() => page.locator('.checkpoint .token-usage').textContent())
      .toBe('1,234 tokens in (1,000 from cache), 56 out');
    // The transcript still shows the pruned result in full.
    const first = page.getByRole('article', { name: 'Tool call read_file: success' }).first();
    await expandToolCard(first);
    await expect.poll(() => first.locator('pre').first().textContent()).toContain('alpha line 199');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
