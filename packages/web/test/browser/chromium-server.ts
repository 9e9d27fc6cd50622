// vitest globalSetup: ONE Debian Chromium for the whole test run (per vitest project), which every
// browser test file connects to (`useBrowser`) instead of launching its own: a launch costs
// seconds on a loaded machine, a connection milliseconds. Each test still gets a fresh browser
// context (its own cookies, storage and pages). The browser listens on 127.0.0.1 only.
import { existsSync } from 'node:fs';
import { createTestdir } from '@clawsmith/test-utils';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

export default async function startRunChromium(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    // Not an error here: a run of files that drive no browser needs none. `useBrowser` says this.
    project.provide('chromium', { missing: `No Chromium at ${CHROMIUM}: apt-get install chromium (see .ci/run).` });
    return async () => {};
  }
  const scratch = createTestdir({}, 'clawsmith-chromium-');
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    host: '127.0.0.1',
    args: CHROMIUM_ARGS,
    env: { ...process.env, XDG_CONFIG_HOME: scratch.path, XDG_CACHE_HOME: scratch.path, TMPDIR: scratch.path },
  });
  project.provide('chromium', { endpoint: server.wsEndpoint() });
  return async () => {
    await server.close();
    scratch.remove();
  };
}
