import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { lineStats, unifiedDiff } from './line-diff.js';
import { beginTurn, openStore, toolDelete, toolWrite } from './__fixtures__/tool-simulator.js';

async function setup(tree: Record<string, string>) {
  const root = testdir(tree);
  const opened = await openStore(testdir({}));
  onTestFinished(() => opened.db.destroy());
  return { root, ...opened };
}

describe('diff', () => {
  it('returns before, after and a unified diff of one path', async () => {
    const { root, store } = await setup({ 'a.txt': 'one\ntwo\nthree\n' });
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'a.txt', 'one\n2\nthree');
    await turn.complete();
    const diff = await store.diff('session-1', 't1', 'a.txt');
    expect(diff).toMatchObject({ change: 'modified', binary: false, diffTruncated: false });
    expect(diff.before).toEqual({
      exists: true,
      available: true,
      bytes: 14,
      text: 'one\ntwo\nthree\n',
      truncated: false,
    });
    expect(diff.after.text).toBe('one\n2\nthree');
    expect(diff.unifiedDiff).toMatchInlineSnapshot(`
      "--- a/a.txt
      +++ b/a.txt
      @@ -1,3 +1,3 @@
       one
      -two
      -three
      +2
      +three
      \\ No newline at end of file
      "
    `);
  });

  it('heads the diff of a created file with /dev/null before it and of a deleted file with /dev/null after it', async () => {
    const { root, store } = await setup({ 'gone.txt': 'bye\nnow\n' });
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'new.txt', 'one\ntwo\nthree\nfour\nfive\n');
    await toolDelete(turn.recorder, root, 'gone.txt');
    const manifest = await turn.complete();
    expect((await store.diff('session-1', 't1', 'new.txt')).unifiedDiff).toBe(
      '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,5 @@\n+one\n+two\n+three\n+four\n+five\n',
    );
    expect((await store.diff('session-1', 't1', 'gone.txt')).unifiedDiff).toBe(
      '--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n',
    );
    expect(manifest.files.map((file) => [file.path, file.change, file.linesAdded, file.linesRemoved])).toEqual([
      ['new.txt', 'created', 5, 0],
      ['gone.txt', 'deleted', 0, 2],
    ]);
  });

  it('keeps the bytes a tool handed over, even when the file changes again before the turn ends', async () => {
    const { root, store } = await setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    const turn = await beginTurn(store, root, 't1');
    const written = Buffer.from('one\ntwo\n');
    const sha256 = createHash('sha256').update(written).digest('hex');
    await turn.recorder.beforeChange('a.txt', { state: 'file', content: Buffer.from('one\n'), mode: 0o644 });
    writeFileSync(join(root, 'a.txt'), written);
    await turn.recorder.afterChange('a.txt', { state: 'file', sha256, content: written });
    // Bytes that do not hash to the reported SHA-256 are never kept: the file is read back instead.
    await turn.recorder.beforeChange('b.txt', { state: 'file', content: Buffer.from('bee\n'), mode: 0o644 });
    writeFileSync(join(root, 'b.txt'), 'bee\nhive\n');
    await turn.recorder.afterChange('b.txt', {
      state: 'file',
      sha256: createHash('sha256').update('bee\nhive\n').digest('hex'),
      content: Buffer.from('lies\n'),
    });
    writeFileSync(join(root, 'a.txt'), 'someone else\n');
    const manifest = await turn.complete();
    expect(manifest.files.map((file) => [file.path, file.bytesAfter, file.linesAdded])).toEqual([
      ['a.txt', 8, 1],
      ['b.txt', 9, 1],
    ]);
    expect((await store.diff('session-1', 't1', 'a.txt')).after).toMatchObject({ available: true, text: 'one\ntwo\n' });
    expect((await store.diff('session-1', 't1', 'b.txt')).after).toMatchObject({
      available: true,
      text: 'bee\nhive\n',
    });
  });

  it('cuts each side at 64 KiB with a flag, and reports binary files without their bytes', async () => {
    const { root, store } = await setup({ 'big.txt': 'é'.repeat(50_000), 'image.png': '' });
    const turn = await beginTurn(store, root, 't1');
    await toolWrite(turn.recorder, root, 'big.txt', 'line\n'.repeat(40_000));
    await toolWrite(turn.recorder, root, 'image.png', new Uint8Array([137, 80, 78, 71, 0, 0, 255]));
    await turn.complete();
    const big = await store.diff('session-1', 't1', 'big.txt');
    expect(big.before).toMatchObject({ bytes: 100_000, truncated: true });
    expect(Buffer.byteLength(big.before.text!)).toBe(65_536);
    expect(big.after).toMatchObject({ bytes: 200_000, truncated: true });
    expect(Buffer.byteLength(big.unifiedDiff)).toBeLessThanOrEqual(65_536);
    expect(big.diffTruncated).toBe(true);
    const image = await store.diff('session-1', 't1', 'image.png');
    expect(image).toMatchObject({
      binary: true,
      unifiedDiff: '',
      before: { text: null, bytes: 0 },
      after: { text: null, bytes: 7 },
    });
    await expect(store.diff('session-1', 't1', 'other.txt')).rejects.toMatchObject({
      code: 'checkpoint_path_not_in_turn',
    });
  });
});

describe('line statistics', () => {
  it('counts the shortest edit, including a change far inside a long file', () => {
    const before = Array.from({ length: 5000 }, (_, index) => `line ${index}`).join('\n');
    const after = before.replace('line 2500\n', 'changed\nadded\n');
    expect(lineStats(before, after)).toEqual({ linesAdded: 2, linesRemoved: 1 });
    expect(lineStats('', 'a\nb\n')).toEqual({ linesAdded: 2, linesRemoved: 0 });
    expect(unifiedDiff('x', 'same\n', 'same\n')).toBe('');
  });
});
