// vitest globalSetup: ONE Debian Chromium for the whole test run, which every browser test file of
// every vitest project (sqlite and postgres) connects to (`useBrowser`) instead of launching its
// own: a launch costs seconds on a loaded machine, a connection milliseconds. Each test still gets
// a fresh browser context (its own cookies, storage and pages). The browser listens on 127.0.0.1
// only.
import { existsSync } from 'node:fs';
import { createTestdir } from '@clawsmith/test-utils';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

interface RunChromium {
  /** Projects whose set-up took the browser and whose teardown has not run yet. */
  users: number;
  readonly started: Promise<{ readonly endpoint: string; close(): Promise<void> }>;
}

// Each project runs this file as a module of its own: the one browser is kept on the main
// process's global object, and the last project to finish closes it.
const RUN_CHROMIUM = Symbol.for('clawsmith.web.test.run-chromium');
const runGlobal = globalThis as { [RUN_CHROMIUM]?: RunChromium };

async function launch(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const scratch = createTestdir({}, 'clawsmith-chromium-');
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    host: '127.0.0.1',
    args: CHROMIUM_ARGS,
    env: { ...process.env, XDG_CONFIG_HOME: scratch.path, XDG_CACHE_HOME: scratch.path, TMPDIR: scratch.path },
  });
  return {
    endpoint: server.wsEndpoint(),
    async close() {
      await server.close();
      scratch.remove();
    },
  };
}

export default async function startRunChromium(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    // Not an error here: a run of files that drive no browser needs none. `useBrowser` says this.
    project.provide('chromium', { missing: `No Chromium at ${CHROMIUM}: apt-get install chromium (see .ci/run).` });
    return async () => {};
  }
  const shared = (runGlobal[RUN_CHROMIUM] ??= { users: 0, started: launch() });
  shared.users += 1;
  project.provide('chromium', { endpoint: (await shared.started).endpoint });
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    if (runGlobal[RUN_CHROMIUM] === shared) delete runGlobal[RUN_CHROMIUM];
    await (await shared.started).close();
  };
}
