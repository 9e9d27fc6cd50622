import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotTree, testdir, type TestTree } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runTool, testContext } from './__fixtures__/tool-context.js';
import { createApplyPatchTool, patchedPaths } from './index.js';

const applyPatch = createApplyPatchTool();

const numbered = (count: number, from = 1) =>
  Array.from({ length: count }, (_, index) => `line ${index + from}`).join('\n') + '\n';

const original: TestTree = {
  'src/long.txt': numbered(40),
  'src/gone.txt': 'remove me\n',
  'tail.txt': 'first\nlast without newline',
  'keep.txt': 'untouched\n',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8' });
}

/** The real `git diff` of `change` made to a repository holding `tree`. */
function gitPatch(tree: TestTree, change: (root: string) => void): string {
  const root = testdir(tree);
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
  change(root);
  git(root, 'add', '-A');
  return git(root, 'diff', '--cached', '--no-renames', '--no-color', 'HEAD');
}

function changeAll(root: string): void {
  const lines = numbered(40).split('\n');
  lines[2] = 'line 3 changed';
  lines.splice(30, 1, 'line 31 changed', 'an added line');
  writeFileSync(join(root, 'src/long.txt'), lines.join('\n'));
  rmSync(join(root, 'src/gone.txt'));
  writeFileSync(join(root, 'tail.txt'), 'first\nlast, now with a newline\n');
  mkdirSync(join(root, 'src/new/deep'), { recursive: true });
  writeFileSync(join(root, 'src/new/deep/run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(root, 'src/new/deep/run.sh'), 0o755);
}

describe('apply_patch', () => {
  it("applies git's own patch exactly: changed, created (in new folders, with its mode) and deleted files, each recorded for undo", async () => {
    const patch = gitPatch(original, changeAll);
    const expected = testdir(original);
    changeAll(expected);
    const root = testdir(original);
    const context = testContext(root);
    const result = await runTool(applyPatch, { patch }, context);
    expect(result).toMatchObject({ status: 'success' });
    expect(result.content).toBe(
      'Applied the patch: deleted src/gone.txt, changed src/long.txt, created src/new/deep/run.sh, changed tail.txt.',
    );
    expect(snapshotTree(root)).toEqual(snapshotTree(expected));
    expect(statSync(join(root, 'src/new/deep/run.sh')).mode & 0o777).toBe(0o755);
    expect(context.changes.map((change) => `${change.phase} ${change.path} ${change.image.state}`)).toEqual([
      'before src/gone.txt file',
      'before src/long.txt file',
      'before src/new/deep/run.sh absent',
      'before tail.txt file',
      'after src/gone.txt absent',
      'after src/long.txt file',
      'after src/new/deep/run.sh file',
      'after tail.txt file',
    ]);
    expect(patchedPaths(patch).sort()).toEqual(['src/gone.txt', 'src/long.txt', 'src/new/deep/run.sh', 'tail.txt']);
  });

  it('finds a hunk whose lines moved (exact context, no fuzz)', async () => {
    const patch = gitPatch(original, changeAll);
    const root = testdir({ ...original, 'src/long.txt': `a new header\nand another\n${numbered(40)}` });
    const result = await runTool(applyPatch, { patch }, testContext(root));
    expect(result).toMatchObject({ status: 'success' });
    const text = readFileSync(join(root, 'src/long.txt'), 'utf8');
    expect(text.split('\n').slice(0, 5)).toEqual(['a new header', 'and another', 'line 1', 'line 2', 'line 3 changed']);
    expect(text).toContain('line 31 changed\nan added line\nline 32\n');
  });

  it('refuses the whole patch when one hunk does not match, writes nothing, and lists what it expected', async () => {
    const patch = gitPatch(original, changeAll);
    const root = testdir({
      ...original,
      'src/long.txt': numbered(40).replace('line 31\n', 'line 31 edited by the person\n'),
    });
    const before = snapshotTree(root);
    const context = testContext(root);
    const result = await runTool(applyPatch, { patch }, context);
    expect(result).toMatchObject({ status: 'error', code: 'patch_conflict' });
    expect(result.content).toContain('Nothing was applied: 1 part of the patch cannot be applied');
    expect(result.content).toContain('- src/long.txt hunk @@ -28,7 +28,8 @@ (near line 28)');
    expect(result.content).toContain('expected: line 31\n    found:    line 31 edited by the person');
    expect(snapshotTree(root)).toEqual(before);
    expect(context.changes).toEqual([]);
  });

  it('reports a file to create that exists and a file to change that is missing as conflicts', async () => {
    const patch = gitPatch(original, changeAll);
    const { 'src/gone.txt': _gone, ...rest } = original;
    const root = testdir({ ...rest, 'src/new/deep/run.sh': 'mine\n' });
    const before = snapshotTree(root);
    const result = await runTool(applyPatch, { patch }, testContext(root));
    expect(result.code).toBe('patch_conflict');
    expect(result.content).toContain('- src/gone.txt: the patch changes it, but it does not exist');
    expect(result.content).toContain('- src/new/deep/run.sh: the patch creates it, but it already exists');
    expect(snapshotTree(root)).toEqual(before);
  });

  it('refuses protected and outside paths, binary changes and text that is not a diff, changing nothing', async () => {
    const root = testdir({ 'a.txt': 'a\n', '.git/config': '[core]\n' });
    const before = snapshotTree(root);
    const protectedPatch = '--- a/.git/config\n+++ b/.git/config\n@@ -1 +1,2 @@\n [core]\n+\tfsmonitor = evil\n';
    expect((await runTool(applyPatch, { patch: protectedPatch }, testContext(root))).code).toBe('protected_path');
    const outside = '--- /dev/null\n+++ b/../escape.txt\n@@ -0,0 +1 @@\n+out\n';
    expect((await runTool(applyPatch, { patch: outside }, testContext(root))).code).toBe('path_outside_workspace');
    const binary = 'diff --git a/a.txt b/a.txt\nindex 1..2 100644\nBinary files a/a.txt and b/a.txt differ\n';
    const unsupported = await runTool(applyPatch, { patch: binary }, testContext(root));
    expect(unsupported.code).toBe('patch_unsupported');
    expect(unsupported.content).toContain('- a.txt: not applied: it is a binary change');
    const prose = await runTool(applyPatch, { patch: 'please change a.txt' }, testContext(root));
    expect(prose).toMatchObject({ code: 'patch_invalid' });
    const short = await runTool(
      applyPatch,
      { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n-a\n+b\n' },
      testContext(root),
    );
    expect(short.content).toContain('The hunk @@ -1,3 +1,3 @@ ends early');
    expect(snapshotTree(root)).toEqual(before);
  });

  it('writes nothing when the recorder cannot record a file', async () => {
    const patch = gitPatch(original, changeAll);
    const root = testdir(original);
    const before = snapshotTree(root);
    const context = testContext(root, {
      beforeChange: (path) => {
        if (path === 'tail.txt') throw new Error('disk full');
      },
    });
    const result = await runTool(applyPatch, { patch }, context);
    expect(result).toMatchObject({ code: 'change_not_recorded' });
    expect(snapshotTree(root)).toEqual(before);
  });
});
