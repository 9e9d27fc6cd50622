import { describe, expect, it } from 'vitest';
import { createWebHarness } from '../../src/__fixtures__/web-harness.js';
import { markdownRendered, signedInPage, useBrowser, BROWSER_TEST_TIMEOUT } from './browser-harness.js';

const browser = useBrowser();

const FILES = Object.fromEntries(Array.from({ length: 35 }, (_, index) => [`f${index}.txt`, `file ${index}\n`]));

/** Three model steps of 35 read_file calls each, then an answer: a few hundred events, more than one page. */
const RESPONSES = [
  ...Array.from({ length: 3 }, (_, step) => ({
    text: `step ${step}: reading **35** files`,
    toolCalls: Array.from({ length: 35 }, (_, call) => ({
      id: `call_${step}_${call}`,
      name: 'read_file',
      arguments: { path: `f${call}.txt` },
    })),
  })),
  { text: 'the last words' },
];

describe('the first view of a session opened by its URL', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  it('asks for each thing once (the newest events in one request, no older page), and a reload fetches no script again', async () => {
    const web = await createWebHarness({ files: FILES, responses: RESPONSES });
    const session = await web.core.createSession({ workspaceRoot: web.workspace });
    await web.core.runTurn({ sessionId: session.id, prompt: 'read them all' });
    const head = (await (await web.api(`/api/sessions/${session.id}/events?newest=1`)).json()) as {
      lastSequence: number;
    };
    expect(head.lastSequence).toBeGreaterThan(300);

    const page = await signedInPage(browser(), web);
    await page.goto('about:blank');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) asked.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    const answers = new Map<string, string | null>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      answers.set(url.pathname, response.headers()['cache-control'] ?? null);
    });
    await page.goto(`${web.server.origin}/#/sessions/${session.id}`);
    await page.getByText('the last words', { exact: true }).waitFor();
    await markdownRendered(page);
    // The turn's checkpoint card has its data: every first-view answer has arrived and been rendered.
    await page.getByRole('button', { name: 'Fork after turn 1' }).waitFor();

    const base = `/api/sessions/${session.id}`;
    expect(asked.sort()).toEqual(
      [
        `GET ${base}/events?newest=200`,
        `GET ${base}/events/stream?afterSequence=${head.lastSequence}`,
        `GET ${base}`,
        `GET ${base}/turns`,
        `GET ${base}/approvals`,
        `GET ${base}/todos`,
        'GET /api/sessions?limit=200',
        // Once more when the first page arrives: a turn may have started or ended between the reads.
        `GET ${base}`,
        `GET ${base}/turns`,
        `GET ${base}/approvals`,
      ].sort(),
    );
    const oldest = await page.locator('.transcript').evaluate((element) => Number(element.dataset.oldestSequence));
    expect(oldest).toBe(head.lastSequence - 199);

    // The page's scripts and styles are content-hashed and kept by the browser; the shell and the API are not.
    const assets = [...answers.keys()].filter((path) => path.startsWith('/assets/'));
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const path of assets) expect(answers.get(path), path).toBe('private, max-age=31536000, immutable');
    expect(answers.get('/')).toBe('no-store');
    expect(answers.get(base)).toBe('no-store');

    await page.reload();
    await page.getByText('the last words', { exact: true }).waitFor();
    const fetchedAgain = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/'))
        .filter((entry) => (entry as PerformanceResourceTiming).transferSize > 0)
        .map((entry) => entry.name),
    );
    expect(fetchedAgain).toEqual([]);
  });

  it('starts nothing before a sign-in URL is traded, and shows the list after it', async () => {
    const web = await createWebHarness();
    const context = await browser().newContext();
    const page = await context.newPage();
    try {
      const asked: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) asked.push(`${request.method()} ${url.pathname}`);
      });
      await page.goto(web.server.createLoginUrl());
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();
      expect(asked[0]).toBe('POST /api/login');
    } finally {
      await context.close();
    }
  });
});
