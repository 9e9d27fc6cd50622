import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { findProtectedLocations } from './protected-locations.js';

const LONG_AGO = new Date('2020-01-01T00:00:00Z');

/** Sets every folder's times to long ago, so the search trusts its remembered listings. */
function settle(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true }))
    if (entry.isDirectory()) utimesSync(join(entry.parentPath, entry.name), LONG_AGO, LONG_AGO);
  utimesSync(root, LONG_AGO, LONG_AGO);
}

describe('findProtectedLocations across commands (remembered listings)', () => {
  it('finds a nested repository created after an earlier search, even with the folder mtime set back', () => {
    const workspace = testdir({ 'vendor/lib/src/a.ts': 'a', 'docs/readme.md': 'r' });
    settle(workspace);
    expect(findProtectedLocations(workspace).existing).toEqual([]);
    expect(findProtectedLocations(workspace).existing).toEqual([]);

    mkdirSync(join(workspace, 'vendor/lib/.git/hooks'), { recursive: true });
    writeFileSync(join(workspace, 'vendor/lib/.git/config'), '[core]\n');
    // What a command could do to hide the change from an mtime check: ctime still moves.
    utimesSync(join(workspace, 'vendor/lib'), LONG_AGO, LONG_AGO);
    expect(statSync(join(workspace, 'vendor/lib')).mtimeMs).toBe(LONG_AGO.getTime());
    expect(findProtectedLocations(workspace).existing).toEqual([join(workspace, 'vendor/lib/.git')]);
  });

  it('drops a removed protected folder and sees a folder replaced under the same name', () => {
    const workspace = testdir({ 'pkg/.vscode/tasks.json': '{}', 'other/x.txt': 'x' });
    settle(workspace);
    expect(findProtectedLocations(workspace).existing).toEqual([join(workspace, 'pkg/.vscode')]);
    rmSync(join(workspace, 'pkg'), { recursive: true });
    expect(findProtectedLocations(workspace).existing).toEqual([]);
    rmSync(join(workspace, 'other'), { recursive: true });
    mkdirSync(join(workspace, 'other/.husky'), { recursive: true });
    utimesSync(join(workspace, 'other'), LONG_AGO, LONG_AGO);
    utimesSync(workspace, LONG_AGO, LONG_AGO);
    expect(findProtectedLocations(workspace).existing).toEqual([join(workspace, 'other/.husky')]);
  });
});
