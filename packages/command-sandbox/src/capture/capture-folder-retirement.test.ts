import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCommand, settleCaptureFolders } from '../index.js';

const killedChild = resolve(import.meta.dirname, '../__fixtures__/killed-after-capture.ts');

describe('capture folder retirement', () => {
  it('removes every finished capture folder in the background: nothing is left once settled', async () => {
    const root = testdir({ 'a.txt': 'a\n' });
    const parent = testdir({});
    for (let call = 0; call < 4; call += 1) {
      const result = await runCommand(
        { captureFolder: parent },
        { workspaceRoot: root, command: `mkdir -p d${call} && echo ${call} > d${call}/f && echo ${call} >> a.txt` },
      );
      expect(result.files).toMatchObject({ captured: true });
    }
    // Calls at once, each with its own folder, while earlier removals may still run.
    const together = await Promise.all(
      [4, 5, 6].map((call) =>
        runCommand({ captureFolder: parent }, { workspaceRoot: root, command: `echo ${call} > t${call}` }),
      ),
    );
    expect(together.map((result) => result.files?.captured)).toEqual([true, true, true]);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a\n0\n1\n2\n3\n');
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'd0', 'd1', 'd2', 'd3', 't4', 't5', 't6']);
    expect(readdirSync(parent).every((name) => name.startsWith('clawsmith-retired-capture-'))).toBe(true);
    await settleCaptureFolders();
    expect(readdirSync(parent)).toEqual([]);
  });

  it("sweeps a killed process's retired capture folder and leaves a live process's alone", async () => {
    const root = testdir({});
    const parent = testdir({});
    const child = spawnSync(
      process.execPath,
      ['--conditions=@clawsmith/source', '--import', 'tsx', killedChild, root, parent],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.signal).toBe('SIGKILL');
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('x\n');
    const leftover = JSON.parse(child.stdout) as string[];
    expect(leftover).toEqual([expect.stringMatching(new RegExp(`^clawsmith-retired-capture-${child.pid}-`))]);
    // overlayfs leaves work/work without permissions: the sweep must still remove it.
    expect(readdirSync(join(parent, leftover[0]!)).sort()).toEqual(['lower', 'upper', 'work']);
    const live = `clawsmith-retired-capture-${process.ppid}-live00`;
    mkdirSync(join(parent, live, 'upper'), { recursive: true });
    await runCommand({ captureFolder: parent }, { workspaceRoot: root, command: 'true' });
    await settleCaptureFolders();
    expect(readdirSync(parent)).toEqual([live]);
  });
});
