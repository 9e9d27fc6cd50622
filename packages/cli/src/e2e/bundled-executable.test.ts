import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { connectServe } from './mcp-serve-harness.js';
import { startWeb, stop } from './web-process.js';

// The built `clawsmith` is a bundle: the worker threads of the search index and of regex searches
// start from modules that the build places beside the bundle's chunks, and the files other
// packages ship (the web page) are found from those packages, not from the bundle's place. A
// misplaced one shows only here: a regex search fails, the index is never used, the page is empty.
describe('the bundled clawsmith executable', { timeout: 120_000 }, () => {
  it('builds and uses the search index in its index thread, and runs a regex search in its regex thread', async () => {
    const workspace = testdir({
      'src/needle.ts': 'export const haystackNeedle = 1;\n',
      'src/other.ts': 'export const somethingElse = 2;\n',
      'README.md': '# nothing to find here\n',
    });
    const served = await connectServe({ home: testdir(), workspace });

    // The first searches start the index (loaded or built in the index thread) and are answered
    // directly meanwhile; once the thread has built it, a search says it used the index.
    const deadline = Date.now() + 60_000;
    let text = '';
    for (;;) {
      const result = await served.call('search_files', { query: 'haystackNeedle' });
      expect(result.isError).toBe(false);
      text = served.text(result);
      expect(text).toContain('src/needle.ts');
      if (text.includes('Used the search index')) break;
      expect(text, 'the index thread could not build the index').not.toContain('could not be built');
      if (Date.now() > deadline) throw new Error(`the search index was never used:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Files whose times are within the index's settling window of its build (a quiet machine
    // builds it at once) are candidates searched directly: the count of candidates varies, the
    // count the thread indexed does not.
    expect(text).toMatch(/Used the search index: searched \d+ of \d+ candidate files? \(.*\) of 3 indexed/);

    const regex = await served.call('search_files', { query: 'haystack[A-Z]\\w+', regex: true });
    expect(regex.isError).toBe(false);
    expect(served.text(regex)).toContain('src/needle.ts:1:');
    expect(served.text(regex)).not.toContain('src/other.ts');
  });

  it('serves the web page that the web package built, and its assets', async () => {
    const web = await startWeb(testdir());
    const page = await fetch(`${web.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const asset = await fetch(`${web.origin}${script}`);
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(1000);
    stop(web.child);
    expect(await web.exited).toBe(0);
  });
});
