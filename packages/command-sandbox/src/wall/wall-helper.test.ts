import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import { WallHelper } from './wall-helper.js';

const mkfifo = resolveTrustedLauncher('mkfifo');

describe('WallHelper.start', () => {
  it.runIf(mkfifo.found)('refuses with sandbox_unavailable, and says why, when its launcher cannot run', async () => {
    const workspace = testdir({});
    const programs = { bubblewrap: `${workspace}/missing-bwrap`, mkfifo: mkfifo.found ? mkfifo.program : '' };
    await expect(WallHelper.start(programs, workspace, '')).rejects.toMatchObject({
      code: 'sandbox_unavailable',
      message: expect.stringContaining('could not start'),
    });
  });

  it.runIf(mkfifo.found)(
    'refuses with sandbox_unavailable when its launcher ends before the helper is ready',
    async () => {
      const workspace = testdir({});
      const programs = { bubblewrap: '/bin/false', mkfifo: mkfifo.found ? mkfifo.program : '' };
      await expect(WallHelper.start(programs, workspace, '')).rejects.toMatchObject({
        code: 'sandbox_unavailable',
        message: expect.stringMatching(/helper for .* (could not start|ended \(exit 1\))/),
      });
    },
  );

  it('refuses with sandbox_unavailable when its pipes cannot be made', async () => {
    const workspace = testdir({});
    await expect(
      WallHelper.start({ bubblewrap: '/bin/false', mkfifo: `${workspace}/no-mkfifo` }, workspace, ''),
    ).rejects.toMatchObject({ code: 'sandbox_unavailable', message: expect.stringContaining('pipes') });
  });
});
