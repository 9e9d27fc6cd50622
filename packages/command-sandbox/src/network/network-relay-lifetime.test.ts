// The relay outlives no clawsmith process: killed without stopping its proxy, the process takes
// the relay with it, and the relay removes the proxy's folder on its way out.
import { existsSync, watch } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startLineChild } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import { NETWORK_SYSTEM_CALLS } from './network-bridge.js';

const fixture = resolve(import.meta.dirname, '../__fixtures__/network-proxy-in-another-process.ts');
const relayRuns = resolveTrustedLauncher('perl').found && NETWORK_SYSTEM_CALLS[process.arch] !== undefined;

/** Resolves once `folder` no longer exists, woken by the folder's own change events. */
function folderGone(folder: string): Promise<void> {
  return new Promise((resolveGone) => {
    const watcher = watch(folder);
    const check = () => {
      if (existsSync(folder)) return;
      watcher.close();
      resolveGone();
    };
    watcher.on('change', check).on('error', check);
    check();
  });
}

describe('the network relay', () => {
  it.runIf(relayRuns)('removes the proxy folder and ends when its clawsmith process is killed', async () => {
    const child = await startLineChild(fixture);
    const sandboxFolder = await child.next();
    const folder = dirname(sandboxFolder);
    expect(existsSync(join(sandboxFolder, 'proxy.sock'))).toBe(true);
    expect(existsSync(join(folder, 'decision.sock'))).toBe(true);
    const gone = folderGone(folder);
    child.send('die');
    await gone;
    expect(existsSync(folder)).toBe(false);
  });
});
