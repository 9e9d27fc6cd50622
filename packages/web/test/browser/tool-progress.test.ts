import { defineTool, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { seriousViolations } from './accessibility.js';
import { screenshot, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

/** A tool that reports a stage, then waits until the test lets it go on (or the turn is cancelled). */
function stagedTool() {
  const gates: (() => void)[] = [];
  const tool = defineTool({
    name: 'staged_import',
    description: 'Imports in three stages, reporting progress.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: false,
    inputSchema: z.object({}),
    summarize: () => 'three stages',
    async execute(_input, context) {
      const stage = (progress: number, message: string) => {
        context.reportProgress?.({ progress, total: 3, message });
        return new Promise<void>((resolve) => {
          gates.push(resolve);
          context.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      };
      await stage(1, 'copying');
      await stage(2, 'indexing <b>now</b>');
      return 'imported in 3 stages';
    },
  });
  return { tool: tool as AnyToolDefinition, release: () => gates.shift()?.() };
}

describe('a running call’s progress on the page', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('shows the latest tool.progress as a bar and “1/3 · message”, changing live, kept across a reload, gone once done', async () => {
    const staged = stagedTool();
    const web = await createWebHarness({
      extensions: [{ source: 'plugin:stages', tools: [staged.tool] }],
      responses: [{ toolCalls: [{ id: 's1', name: 'staged_import', arguments: {} }] }, { text: 'Imported.' }],
    });
    const session = await web.core.createSession({ workspaceRoot: web.workspace, title: 'progress' });
    const page = await signedInPage(browser(), web, `#/sessions/${session.id}`);
    await page.getByRole('textbox', { name: 'Prompt for a new turn' }).fill('import it');
    await page.getByRole('button', { name: 'Send' }).click();

    const running = page.getByRole('article', { name: 'Tool call staged_import: running' });
    const bar = running.getByRole('progressbar', { name: 'Progress of staged_import' });
    const said = () => running.locator('.progress-text').textContent();
    await expect.poll(said).toBe('1/3 · copying');
    expect(await bar.getAttribute('value')).toBe('1');
    expect(await bar.getAttribute('max')).toBe('3');
    expect(await seriousViolations(page)).toEqual([]);

    // Progress is persisted: a page opened mid-call replays it from the event pages.
    await page.reload();
    await expect.poll(said).toBe('1/3 · copying');

    staged.release();
    // The message is the tool's text, shown literally.
    await expect.poll(said).toBe('2/3 · indexing <b>now</b>');
    expect(await bar.getAttribute('value')).toBe('2');
    await screenshot(page, 'tool-progress');

    staged.release();
    const done = page.getByRole('article', { name: 'Tool call staged_import: success' });
    await done.waitFor();
    await page.getByText('Imported.').waitFor();
    expect(await done.locator('.tool-progress').count()).toBe(0);
  });
});
