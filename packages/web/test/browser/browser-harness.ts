// Browser test harness: ONE Debian Chromium per test run (chromium-server.ts, driven by
// playwright-core, never a downloaded browser) that each test file connects to, real `clawsmith
// run --script` child processes filling a real home, and the real web server serving the built
// page. Screenshots go to test-results/screenshots.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, onTestFinished } from 'vitest';
import './chromium.js';
import type { WebHarness } from '../../src/__fixtures__/web-harness.js';
import { DEFAULT_PAGE_DIRECTORY } from '../../src/static/page-files.js';

/** Where screenshots of the main views are written (not committed). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const CLI_BIN = join(dirname(createRequire(import.meta.url).resolve('@clawsmith/cli/package.json')), 'dist/bin.js');

/** Connects to the run's one Chromium (chromium-server.ts) for the whole file and disconnects after; `browser()` returns it. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!existsSync(join(DEFAULT_PAGE_DIRECTORY, 'index.html')))
      throw new Error('The page is not built: run `npx nx run @clawsmith/web:build` (the test target does it first).');
    const run = inject('chromium');
    if (run === undefined)
      throw new Error("No browser for this run: the web package's vitest.config.ts starts one (chromium-server.ts).");
    if ('missing' in run) throw new Error(run.missing);
    browser = await chromium.connect(run.endpoint);
  }, 60_000);
  afterAll(async () => {
    // Disconnects this file; the run's browser stays up for the next file.
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('The browser did not start.');
    return browser;
  };
}

/** A fresh context signed in through a new sign-in URL (each signs in once); the page shows the session list. */
export async function signedInPage(browser: Browser, web: WebHarness, path = '#/'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (process.env.CLAWSMITH_BROWSER_DEBUG)
    page.on('console', (message) => console.log(`[browser ${message.type()}] ${message.text()}`));
  await page.goto(web.server.createLoginUrl());
  await page.getByRole('heading', { name: 'Sessions' }).waitFor();
  if (path !== '#/') await page.goto(`${web.server.origin}/${path}`);
  return page;
}

/** Saves a screenshot of the page under test-results/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** The result of one `clawsmith` child process. */
export interface ClawsmithRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly sessionId: string | undefined;
}

/** Starts `clawsmith run --json --script <responses> ...` on `home`; resolves when it exits. */
export function clawsmithRun(
  home: string,
  options: {
    readonly workspace: string;
    readonly prompt: string;
    readonly responses: readonly unknown[];
    readonly session?: string;
    readonly permissionMode?: string;
    /** More `clawsmith run` options, before the prompt (e.g. `['--context-window', '6000']`). */
    readonly extraArgs?: readonly string[];
  },
): Promise<ClawsmithRun> & { readonly pid: number | undefined; kill(signal: NodeJS.Signals): void } {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing; build the cli (npx nx run @clawsmith/cli:build).`);
  const script = join(home, `script-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(script, JSON.stringify({ responses: options.responses }));
  const args = [
    CLI_BIN,
    'run',
    '--json',
    '--home',
    home,
    '--workspace',
    options.workspace,
    '--permission-mode',
    options.permissionMode ?? 'full-auto',
    '--script',
    script,
    ...(options.session ? ['--session', options.session] : []),
    ...(options.extraArgs ?? []),
    options.prompt,
  ];
  const environment: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'CLAWSMITH_PROVIDER', 'CLAWSMITH_MODEL', 'NODE_OPTIONS'])
    delete environment[name];
  const child = spawn(process.execPath, args, {
    cwd: options.workspace,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<ClawsmithRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const first = stdout.split('\n', 1)[0];
      let sessionId: string | undefined;
      try {
        sessionId = first ? (JSON.parse(first) as { sessionId?: string }).sessionId : undefined;
      } catch {
        sessionId = undefined;
      }
      resolve({ code, stdout, stderr, sessionId });
    });
  });
  return Object.assign(done, { pid: child.pid, kill: (signal: NodeJS.Signals) => void child.kill(signal) });
}

/** Runs a scripted turn to completion and returns its session id (throws with stderr when it failed). */
export async function scriptedTurn(home: string, options: Parameters<typeof clawsmithRun>[1]): Promise<string> {
  const run = await clawsmithRun(home, options);
  if (run.sessionId === undefined && options.session === undefined)
    throw new Error(`clawsmith run failed (exit ${run.code}): ${run.stderr}`);
  return run.sessionId ?? options.session!;
}

/** Per-test limit of the browser tests: they spawn `clawsmith run` processes and drive Chromium on a shared machine. */
export const BROWSER_TEST_TIMEOUT = 120_000;

/** Opens a collapsed tool card (its one-line button) and waits for its details. */
export async function expandToolCard(card: Locator): Promise<void> {
  const line = card.getByRole('button', { expanded: false });
  await line.click();
  await card.locator('.tool-details').waitFor();
}

/**
 * Waits until no assistant text is still waiting for the Markdown chunk: until then it shows as
 * literal text, which is then replaced, so an element found earlier is gone and the layout moves.
 */
export async function markdownRendered(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.markdown-pending').count(), { timeout: 60_000 }).toBe(0);
}
