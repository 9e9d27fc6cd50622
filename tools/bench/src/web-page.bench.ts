// The page in real Chromium (Debian's, driven by playwright-core) on a session of 10,000+ events
// written by two real turns (48 model steps of 35 read_file calls each): the time from navigation
// to the transcript's last words visible, and the DOM elements then. The reference, measured the
// same way in the same run, is a one-turn session of a few events: the ratio says what the long
// history costs on top of loading the page at all.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentCore, createBuiltinTools, openClawsmithHome } from '@clawsmith/core';
import { createScriptedProvider, type ScriptedResponse } from '@clawsmith/providers';
import { startWebServer } from '@clawsmith/web';
import { chromium } from 'playwright-core';
import { medianOf, timingOf } from './measure.js';

const RUNS = 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const scratch = mkdtempSync(join(tmpdir(), 'clawsmith-bench-web-page-'));
const workspace = join(scratch, 'workspace');
const homePath = join(scratch, 'home');
mkdirSync(workspace);
for (let index = 0; index < 35; index += 1) writeFileSync(join(workspace, `f${index}.txt`), `file ${index}\n`);

function longTurn(label: string, finalText: string): ScriptedResponse[] {
  const responses: ScriptedResponse[] = [];
  for (let step = 0; step < 48; step += 1)
    responses.push({
      text: `${label} step ${step}: reading **35** files`,
      toolCalls: Array.from({ length: 35 }, (_, call) => ({
        id: `${label}_${step}_${call}`,
        name: 'read_file',
        arguments: { path: `f${call}.txt` },
      })),
    });
  responses.push({ text: finalText });
  return responses;
}

const home = await openClawsmithHome(homePath);
const core = createAgentCore({
  db: home.db,
  provider: createScriptedProvider({
    script: {
      responses: [
        { text: 'short and done' },
        ...longTurn('one', 'first half done'),
        ...longTurn('two', 'the end of a long session'),
      ],
    },
  }),
  checkpoints: home.checkpoints,
  artifacts: home.artifacts,
  builtinTools: createBuiltinTools(),
  permissionMode: 'full-auto',
});
const short = await core.createSession({ workspaceRoot: workspace });
await core.runTurn({ sessionId: short.id, prompt: 'a short session' });
const long = await core.createSession({ workspaceRoot: workspace });
await core.runTurn({ sessionId: long.id, prompt: 'the very first prompt' });
await core.runTurn({ sessionId: long.id, prompt: 'the second prompt' });
const server = await startWebServer({ core, home, canRunTurns: false });
const headers = { authorization: `Bearer ${server.token}` };
const eventCount = async (sessionId: string) =>
  (
    (await (await fetch(`${server.origin}/api/sessions/${sessionId}/events?limit=1`, { headers })).json()) as {
      lastSequence: number;
    }
  ).lastSequence;

const browserScratch = join(scratch, 'chromium');
mkdirSync(browserScratch);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // Nothing but the server under test resolves: a stray request cannot leave the machine.
    '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  ],
  env: { ...process.env, XDG_CONFIG_HOME: browserScratch, XDG_CACHE_HOME: browserScratch, TMPDIR: browserScratch },
});

// Run inside the page (as source text: this file is typed for Node, not the DOM).
const VISIBLE_IN_TRANSCRIPT = `(text) => {
  const log = document.querySelector('.transcript');
  const target = [...document.querySelectorAll('.transcript p, .transcript pre')].find(
    (element) => element.textContent === text,
  );
  if (!log || !target) return false;
  const view = log.getBoundingClientRect();
  const box = target.getBoundingClientRect();
  return box.top >= view.top && box.bottom <= view.bottom;
}`;
// Where the time went, from the page's own Performance timeline (ms from navigation start).
const FIGURES = `(() => {
  const resources = performance.getEntriesByType('resource');
  const scripts = resources.filter((entry) => /[/]assets[/].*[.]js$/.test(entry.name));
  const events = resources.find((entry) => /[/]events[?]/.test(entry.name));
  const api = resources.filter((entry) => entry.name.includes('/api/') && !entry.name.includes('/stream'));
  return {
    endVisibleMs: performance.now(),
    domElements: document.getElementsByTagName('*').length,
    htmlMs: performance.getEntriesByType('navigation')[0].responseEnd,
    firstScriptMs: Math.min(...scripts.map((entry) => entry.responseEnd)),
    firstRequestMs: Math.min(...api.map((entry) => entry.startTime)),
    eventsMs: events ? events.responseEnd : NaN,
    allScriptsMs: Math.max(...scripts.map((entry) => entry.responseEnd)),
    firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    scriptKilobytes: scripts.reduce((sum, entry) => sum + entry.encodedBodySize, 0) / 1024,
    requests: api.length,
  };
})()`;

interface FirstView {
  readonly endVisibleMs: number;
  readonly domElements: number;
  readonly htmlMs: number;
  readonly firstScriptMs: number;
  readonly firstRequestMs: number;
  readonly eventsMs: number;
  readonly allScriptsMs: number;
  readonly firstPaintMs: number;
  readonly scriptKilobytes: number;
  readonly requests: number;
}

/** Signs a fresh context in, then loads the session from a blank page and waits for its last words on screen. */
async function firstView(sessionId: string, lastWords: string): Promise<FirstView> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto(server.createLoginUrl());
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.goto('about:blank');
    await page.goto(`${server.origin}/#/sessions/${sessionId}`);
    const words = page.getByText(lastWords, { exact: true });
    await words.waitFor();
    // Visible means inside the transcript's box, not merely in the DOM.
    await page.waitForFunction(VISIBLE_IN_TRANSCRIPT, lastWords);
    return await page.evaluate<FirstView>(FIGURES);
  } finally {
    await context.close();
  }
}

// One warm-up of each, then the two interleaved so both see the same machine load.
await firstView(short.id, 'short and done');
await firstView(long.id, 'the end of a long session');
const shortViews: FirstView[] = [];
const longViews: FirstView[] = [];
for (let run = 0; run < RUNS; run += 1) {
  shortViews.push(await firstView(short.id, 'short and done'));
  longViews.push(await firstView(long.id, 'the end of a long session'));
}
const reference = timingOf(
  `a ${(await eventCount(short.id)).toLocaleString('en')}-event session`,
  shortViews.map((view) => view.endVisibleMs),
);
const longTiming = timingOf(
  `a ${(await eventCount(long.id)).toLocaleString('en')}-event session`,
  longViews.map((view) => view.endVisibleMs),
);
console.log('\n## the page in Chromium: navigation to the transcript end visible (1280×900, fresh context each run)');
console.log(`| session | median ms | p90 ms | ratio to ${reference.label} | DOM elements (median) |`);
console.log('|---|---:|---:|---:|---:|');
for (const [timing, views] of [
  [reference, shortViews],
  [longTiming, longViews],
] as const)
  console.log(
    `| ${timing.label} | ${timing.medianMs.toFixed(0)} | ${timing.p90Ms.toFixed(0)} | ${(timing.medianMs / reference.medianMs).toFixed(2)}x | ${medianOf(views.map((view) => view.domElements))} |`,
  );
console.log(`(aim: ≤ 1,500 ms and < 3,000 DOM elements for the long session; ${RUNS} runs each)`);

const PHASES: readonly [string, (view: FirstView) => number][] = [
  ['page shell (HTML) received', (view) => view.htmlMs],
  ['first script received', (view) => view.firstScriptMs],
  ['first API request sent', (view) => view.firstRequestMs],
  ['newest events received', (view) => view.eventsMs],
  ['every script received', (view) => view.allScriptsMs],
  ['first contentful paint', (view) => view.firstPaintMs],
  ['transcript end visible', (view) => view.endVisibleMs],
];
console.log('\n## where the first view went (medians, ms from navigation start)');
console.log(`| phase | ${reference.label} | ${longTiming.label} |`);
console.log('|---|---:|---:|');
for (const [phase, of] of PHASES)
  console.log(`| ${phase} | ${medianOf(shortViews.map(of)).toFixed(0)} | ${medianOf(longViews.map(of)).toFixed(0)} |`);
console.log(
  `| script fetched before the end was visible (KB) | ${medianOf(shortViews.map((view) => view.scriptKilobytes)).toFixed(0)} | ${medianOf(longViews.map((view) => view.scriptKilobytes)).toFixed(0)} |`,
);
console.log(
  `| API requests (not the stream) | ${medianOf(shortViews.map((view) => view.requests))} | ${medianOf(longViews.map((view) => view.requests))} |`,
);

await browser.close();
await server.close();
await core.close();
await home.close();
rmSync(scratch, { recursive: true, force: true });
