import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import { setupCommandLine, setupPrograms, type SetupPrograms } from './overlay-launch.js';

function overlayFolders() {
  const base = testdir({ 'lower/seen': 'lower' });
  for (const folder of ['upper', 'work']) mkdirSync(join(base, folder));
  const lower = join(base, 'lower');
  return { lower, upper: join(base, 'upper'), work: join(base, 'work'), target: lower };
}

const bubblewrap = resolveTrustedLauncher('bwrap');
const found = setupPrograms();

describe(setupCommandLine, () => {
  const variants: [string, (programs: SetupPrograms) => SetupPrograms][] = [
    ['one perl process', (programs) => programs],
    ['unshare, sh and mount', ({ perl: _perl, ...programs }) => programs],
  ];
  it.skipIf(!found?.perl || !bubblewrap.found).each(variants)(
    'mounts the overlay and runs the next program on it (%s): writes land in the upper folder only',
    (_name, choose) => {
      const folders = overlayFolders();
      const { file, args } = setupCommandLine(choose(found!), folders, [
        bubblewrap.found ? bubblewrap.program : 'bwrap',
        '--ro-bind',
        '/',
        '/',
        '--bind',
        folders.lower,
        folders.lower,
        '--unshare-user',
        '--uid',
        String(process.getuid?.() ?? 0),
        '--unshare-pid',
        '--die-with-parent',
        '--cap-drop',
        'ALL',
        '--',
        '/bin/sh',
        '-c',
        'cat "$1/seen" > "$1/written"',
        'setup',
        folders.lower,
      ]);
      const run = spawnSync(file, args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(readFileSync(join(folders.upper, 'written'), 'utf8')).toBe('lower');
      expect(existsSync(join(folders.lower, 'written'))).toBe(false);
    },
  );

  it.skipIf(!found?.perl).each(variants)(
    'exits 125 and says why when the overlay cannot be mounted (%s)',
    (_name, choose) => {
      const folders = { ...overlayFolders(), target: '/nonexistent/clawsmith-target' };
      const { file, args } = setupCommandLine(choose(found!), folders, ['/bin/true']);
      const run = spawnSync(file, args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
      expect(run.status).toBe(125);
      expect(run.stderr).toMatch(/mount/);
    },
  );
});
