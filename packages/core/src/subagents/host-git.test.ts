import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runGit } from './host-git.js';

describe('host git', () => {
  it('never runs a git planted on PATH (a workspace node_modules/.bin under npx)', async () => {
    const planted = testdir();
    const repository = testdir({ 'a.txt': 'alpha\n' });
    const marker = join(planted, 'planted-git-ran');
    writeFileSync(join(planted, 'git'), `#!/bin/sh\ntouch '${marker}'\necho 'git version 99-planted'\n`);
    chmodSync(join(planted, 'git'), 0o755);
    const before = process.env.PATH;
    process.env.PATH = `${planted}:${before ?? ''}`;
    onTestFinished(() => {
      process.env.PATH = before;
    });
    const { stdout } = await runGit(repository, ['--version']);
    expect(stdout).toMatch(/^git version \d/);
    expect(stdout).not.toContain('planted');
    expect(existsSync(marker)).toBe(false);
    // The git it runs gets the trusted folders as PATH, not the caller's.
    await runGit(repository, ['init', '-q']);
    const { stdout: path } = await runGit(repository, ['-c', 'alias.path=!printenv PATH', 'path']);
    expect(path.trim().split(':')).not.toContain(planted);
  });
});
