import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../index.js';
import { checkTrustedLauncher, resolveTrustedLauncher } from './trusted-launcher.js';

const fixture = new URL('../__fixtures__/inherited-descriptors.ts', import.meta.url).pathname;

describe('resolveTrustedLauncher', () => {
  it('takes bwrap from the system folders and refuses a launcher anyone else could replace', () => {
    const system = resolveTrustedLauncher('bwrap');
    expect(system).toMatchObject({ found: true });
    expect((system as { program: string }).program).toMatch(/^\/(usr\/)?(s?bin|local\/bin)\/bwrap$/);
    const workspace = testdir({ 'node_modules/.bin/bwrap': '#!/bin/sh\n' });
    chmodSync(`${workspace}/node_modules/.bin/bwrap`, 0o755);
    expect(resolveTrustedLauncher('bwrap', 'bwrap')).toMatchObject({ found: false });
    // Owned by this user in a temporary folder: a folder on the way is not root-owned, or is
    // world-writable (/tmp), so the launcher is refused whoever runs the test.
    expect(checkTrustedLauncher(`${workspace}/node_modules/.bin/bwrap`)).toMatchObject({ found: false });
  });

  it('runs commands in the real sandbox even when the PATH starts with a planted bwrap', async () => {
    const workspace = testdir({});
    const outside = testdir({});
    mkdirSync(`${workspace}/node_modules/.bin`, { recursive: true });
    // The planted launcher skips every sandbox option and runs the command bare.
    writeFileSync(
      `${workspace}/node_modules/.bin/bwrap`,
      `#!/bin/sh\ntouch ${outside}/planted-bwrap-ran\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n`,
    );
    chmodSync(`${workspace}/node_modules/.bin/bwrap`, 0o755);
    const result = await runCommand(
      { environmentSource: { PATH: `${workspace}/node_modules/.bin:/usr/bin:/bin` } },
      { workspaceRoot: workspace, command: `hostname; touch ${outside}/escaped; echo touched=$?` },
    );
    expect(result.sandbox).toBe('bubblewrap');
    expect(result.output).toContain('clawsmith-sandbox');
    expect(result.output).toContain('touched=1');
    expect(existsSync(`${outside}/planted-bwrap-ran`)).toBe(false);
    expect(existsSync(`${outside}/escaped`)).toBe(false);
  });
});

describe('descriptors inherited by the clawsmith process', () => {
  it('never reach a command, in pipe or terminal mode (fds 20, 100 and 250)', async () => {
    const workspace = testdir({});
    const outside = testdir({ 'log.txt': '', 'folder/keep.txt': 'keep' });
    const log = openSync(`${outside}/log.txt`, 'a');
    const folder = openSync(`${outside}/folder`, 'r');
    const stdio: (number | 'ignore' | 'pipe')[] = Array.from({ length: 251 }, () => 'ignore' as const);
    stdio[1] = 'pipe';
    stdio[2] = 'pipe';
    stdio[20] = log;
    stdio[100] = log;
    stdio[250] = folder;
    const command =
      'for fd in 20 100 250; do (echo leaked-$fd >&$fd) 2>/dev/null && echo "open $fd"; done; ' +
      'echo x > /proc/self/fd/250/planted 2>/dev/null && echo "wrote through 250"; ls /proc/self/fd | tr "\\n" " "; echo; echo done';
    const child = spawn(
      process.execPath,
      ['--conditions=@clawsmith/source', '--import', 'tsx', fixture, workspace, command],
      {
        stdio,
      },
    );
    closeSync(log);
    closeSync(folder);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const report = JSON.parse(stdout) as { piped: string; pipedSandbox: string; terminal: string };
    expect(report.pipedSandbox).toBe('bubblewrap');
    for (const output of [report.piped, report.terminal]) {
      expect(output).toContain('done');
      expect(output).not.toMatch(/open \d+|wrote through/);
    }
    expect(readFileSync(`${outside}/log.txt`, 'utf8')).toBe('');
    expect(existsSync(`${outside}/folder/planted`)).toBe(false);
  }, 60_000);
});
