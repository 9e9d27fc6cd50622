import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { beginTurn, openStore } from './__fixtures__/tool-simulator.js';

const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');

async function setup(tree: Parameters<typeof testdir>[0], preimageBytesPerTurn?: number) {
  const home = testdir({});
  const root = testdir(tree);
  const opened = await openStore(home, preimageBytesPerTurn === undefined ? {} : { preimageBytesPerTurn });
  onTestFinished(() => opened.db.destroy());
  return { root, ...opened };
}

// What a command applied through overlay capture looks like to the store: batches of links,
// folders and modes besides files.
describe('recording a command’s changes', () => {
  it('records links, folders and modes in batches, and undo puts them back byte for byte', async () => {
    const { root, store } = await setup({
      'run.sh': '#!/bin/sh\n',
      'old-link': { symlink: 'run.sh' },
      'tree/inner/file.txt': 'inner\n',
    });
    const before = snapshotTree(root);
    const turn = await beginTurn(store, root, 't1');
    await turn.recorder.beforeChanges!([
      { path: 'run.sh', preimage: { state: 'file', content: readFileSync(join(root, 'run.sh')), mode: 0o644 } },
      { path: 'old-link', preimage: { state: 'symlink', target: 'run.sh' } },
      { path: 'link', preimage: { state: 'absent' } },
      { path: 'made', preimage: { state: 'absent' } },
      { path: 'made/x.txt', preimage: { state: 'absent' } },
      { path: 'tree/inner/file.txt', preimage: { state: 'file', content: Buffer.from('inner\n'), mode: 0o644 } },
      { path: 'tree/inner', preimage: { state: 'directory', mode: 0o755 } },
      { path: 'tree', preimage: { state: 'directory', mode: 0o755 } },
    ]);
    chmodSync(join(root, 'run.sh'), 0o755);
    unlinkSync(join(root, 'old-link'));
    symlinkSync('/etc/passwd', join(root, 'link'));
    mkdirSync(join(root, 'made'));
    writeFileSync(join(root, 'made/x.txt'), 'x\n');
    rmSync(join(root, 'tree'), { recursive: true });
    await turn.recorder.afterChanges!([
      { path: 'run.sh', postimage: { state: 'file', sha256: sha256('#!/bin/sh\n'), mode: 0o755 } },
      { path: 'old-link', postimage: { state: 'absent' } },
      { path: 'link', postimage: { state: 'symlink', target: '/etc/passwd' } },
      { path: 'made', postimage: { state: 'directory', mode: 0o755 } },
      { path: 'made/x.txt', postimage: { state: 'file', sha256: sha256('x\n'), mode: 0o644 } },
      { path: 'tree/inner/file.txt', postimage: { state: 'absent' } },
      { path: 'tree/inner', postimage: { state: 'absent' } },
      { path: 'tree', postimage: { state: 'absent' } },
    ]);
    const manifest = await turn.complete();
    expect(manifest.files.map((file) => [file.path, file.change, file.entry])).toEqual([
      ['run.sh', 'modified', 'file'],
      ['old-link', 'deleted', 'symlink'],
      ['link', 'created', 'symlink'],
      ['made', 'created', 'directory'],
      ['made/x.txt', 'created', 'file'],
      ['tree/inner/file.txt', 'deleted', 'file'],
      ['tree/inner', 'deleted', 'directory'],
      ['tree', 'deleted', 'directory'],
    ]);
    await store.undoFiles('session-1', 't1');
    expect(snapshotTree(root)).toEqual(before);
  });

  it('keeps pre-images only up to the per-turn cap, says which paths are not undoable, and keeps notes', async () => {
    const { root, store } = await setup({ 'small.txt': 'small\n', 'big.txt': 'b'.repeat(1000) }, 100);
    const turn = await beginTurn(store, root, 't1');
    const recording = await turn.recorder.beforeChanges!([
      { path: 'small.txt', preimage: { state: 'file', content: Buffer.from('small\n'), mode: 0o644 } },
      { path: 'big.txt', preimage: { state: 'file', content: Buffer.from('b'.repeat(1000)), mode: 0o644 } },
    ]);
    expect(recording).toEqual({ notKept: ['big.txt'] });
    writeFileSync(join(root, 'small.txt'), 'changed\n');
    writeFileSync(join(root, 'big.txt'), 'changed\n');
    await turn.recorder.afterChanges!([
      { path: 'small.txt', postimage: { state: 'file', sha256: sha256('changed\n') } },
      { path: 'big.txt', postimage: { state: 'file', sha256: sha256('changed\n') } },
    ]);
    await turn.recorder.note!('Changes made by `make` are not recorded (the sandbox is off).');
    const manifest = await turn.complete();
    expect(manifest.files.map((file) => [file.path, file.undoable])).toEqual([
      ['small.txt', true],
      ['big.txt', false],
    ]);
    expect(manifest.notes).toEqual(['Changes made by `make` are not recorded (the sandbox is off).']);
    expect((await store.getRestorePoint('session-1', 't1')).manifest.notes).toEqual(manifest.notes);
    const undone = await store.undoFiles('session-1', 't1');
    expect(undone.notUndoable).toEqual(['big.txt']);
    expect(readFileSync(join(root, 'small.txt'), 'utf8')).toBe('small\n');
    expect(readFileSync(join(root, 'big.txt'), 'utf8')).toBe('changed\n');
  });
});
