import { mkdirSync, renameSync, rmdirSync, symlinkSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { RootProtectedKeys } from './root-protected-key.js';

describe('RootProtectedKeys', () => {
  it('sees every root-level protected path made, swapped or removed, also once the key is remembered', async () => {
    const workspace = testdir({ 'src/a.txt': 'a' });
    const keys = new RootProtectedKeys();
    const empty = keys.of(workspace);
    expect(empty).toMatch(/^-+$/);
    mkdirSync(`${workspace}/.git`);
    const withGit = keys.of(workspace);
    expect(withGit).not.toBe(empty);
    // Past the settling time the key is remembered; an entry made, swapped or removed still shows.
    await delay(2_100);
    expect(keys.of(workspace)).toBe(withGit);
    expect(keys.of(workspace)).toBe(withGit);
    mkdirSync(`${workspace}/.vscode`);
    const withEditor = keys.of(workspace);
    expect(withEditor).not.toBe(withGit);
    renameSync(`${workspace}/.git`, `${workspace}/old-git`);
    symlinkSync('old-git', `${workspace}/.git`);
    const swapped = keys.of(workspace);
    expect(swapped).toContain('l');
    expect(swapped).not.toBe(withEditor);
    // Changes below a protected folder do not matter to the key (the helper binds the folder).
    mkdirSync(`${workspace}/old-git/hooks`);
    expect(keys.of(workspace)).toBe(swapped);
    rmdirSync(`${workspace}/.vscode`);
    expect(keys.of(workspace)).not.toBe(swapped);
  });
});
