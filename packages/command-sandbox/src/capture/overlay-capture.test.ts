import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import type { FileChangeRecorder, FilePostimage, FilePreimage } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { createRunCommandTool, runCommand, settleCaptureFolders } from '../index.js';

/** A recorder that keeps every call, in order (the port's contract, without a database). */
function listRecorder(options: { failBefore?: boolean } = {}) {
  const calls: { phase: 'before' | 'after'; path: string; state: string }[] = [];
  const recorder: FileChangeRecorder = {
    beforeChange(path: string, preimage: FilePreimage) {
      if (options.failBefore) throw new Error('the checkpoint store is full');
      calls.push({ phase: 'before', path, state: preimage.state });
    },
    afterChange(path: string, postimage: FilePostimage) {
      calls.push({ phase: 'after', path, state: postimage.state });
    },
  };
  return { recorder, calls };
}

// Each test that counts capture folders gives its commands a folder of its own: other processes
// on the machine (parallel test runs) make and remove capture folders in /tmp at any moment.
const captureFolders = (parent: string) => readdirSync(parent).filter((name) => name.startsWith('clawsmith-capture-'));

describe('overlay capture', () => {
  it('applies odd names, refuses FIFOs, hard links and names that are not UTF-8, and says so', async () => {
    const root = testdir({ 'a.txt': 'a\n' });
    const { recorder, calls } = listRecorder();
    const result = await runCommand(
      {},
      {
        workspaceRoot: root,
        command: `mkfifo pipe; echo one > linked; ln linked twin; printf x > "$(printf 'new\\nline')"; printf y > "$(printf 'bad\\377name')"`,
        fileChanges: recorder,
      },
    );
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(root, 'new\nline'), 'utf8')).toBe('x');
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'new\nline']);
    expect(result.files).toMatchObject({ captured: true });
    const changes = result.files?.captured ? result.files.changes : undefined;
    expect(changes?.applied).toEqual([{ path: 'new\nline', change: 'created', entry: 'file' }]);
    expect(changes?.unsupported.map((entry) => entry.entry).sort()).toEqual([
      'fifo',
      'hard link',
      'hard link',
      'name not UTF-8',
    ]);
    expect(calls).toEqual([
      { phase: 'before', path: 'new\nline', state: 'absent' },
      { phase: 'after', path: 'new\nline', state: 'file' },
    ]);
  });

  it('turns a folder deleted and made again (opaque) into deletions of what it held', async () => {
    const root = testdir({ 'src/old.ts': 'old\n', 'src/deep/older.ts': 'older\n', 'keep/k.txt': 'k\n' });
    const { recorder, calls } = listRecorder();
    await runCommand(
      {},
      { workspaceRoot: root, command: 'rm -rf src && mkdir src && echo new > src/new.ts', fileChanges: recorder },
    );
    expect(snapshotTree(root)).toMatchObject({ src: 'dir:755', 'src/new.ts': expect.stringMatching(/^file:644:/) });
    expect(Object.keys(snapshotTree(root)).sort()).toEqual(['keep', 'keep/k.txt', 'src', 'src/new.ts']);
    expect(calls.filter((call) => call.phase === 'after').map((call) => `${call.path}=${call.state}`)).toEqual([
      'src/deep/older.ts=absent',
      'src/deep=absent',
      'src/old.ts=absent',
      'src/new.ts=file',
    ]);
  });

  it('tells folders copied up to hold an edit (kept time: not asked, or asked and not opaque) from folders made again', async () => {
    const root = testdir({
      'inplace/edited.txt': 'a\n',
      'inplace/other.txt': 'o\n',
      'renamed/edited.txt': 'a\n',
      'renamed/other.txt': 'o\n',
      'remade/old.txt': 'old\n',
    });
    await runCommand(
      {},
      {
        workspaceRoot: root,
        command:
          'echo b > inplace/edited.txt && sed -i s/a/b/ renamed/edited.txt && rm -rf remade && mkdir remade && echo new > remade/new.txt',
      },
    );
    expect(Object.keys(snapshotTree(root)).sort()).toEqual([
      'inplace',
      'inplace/edited.txt',
      'inplace/other.txt',
      'remade',
      'remade/new.txt',
      'renamed',
      'renamed/edited.txt',
      'renamed/other.txt',
    ]);
    expect(readFileSync(join(root, 'inplace/edited.txt'), 'utf8')).toBe('b\n');
    expect(readFileSync(join(root, 'renamed/edited.txt'), 'utf8')).toBe('b\n');
  });

  it('applies without a recorder and says the changes are not recorded for undo', async () => {
    const root = testdir({});
    const result = await runCommand({}, { workspaceRoot: root, command: 'echo x > made.txt' });
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('x\n');
    expect(result.files).toMatchObject({ captured: true, changes: { recorded: false } });
  });

  it('applies nothing when the recorder refuses, and keeps what the command wrote', async () => {
    const root = testdir({ 'a.txt': 'a\n' });
    const before = snapshotTree(root);
    const { recorder } = listRecorder({ failBefore: true });
    const parent = testdir({});
    const foldersBefore = captureFolders(parent);
    const result = await runCommand(
      { captureFolder: parent },
      { workspaceRoot: root, command: 'echo b > a.txt', fileChanges: recorder },
    );
    expect(snapshotTree(root)).toEqual(before);
    const files = result.files?.captured ? result.files : undefined;
    expect(files?.changes.failed).toEqual([
      { path: 'a.txt', reason: 'not recorded for undo, so not applied (the checkpoint store is full)' },
    ]);
    expect(readFileSync(join(files?.keptFolder ?? '', 'a.txt'), 'utf8')).toBe('b\n');
    expect(captureFolders(parent).length).toBe(foldersBefore.length + 1);
    const kept = dirname(files?.keptFolder ?? '/nonexistent/upper');
    chmodSync(join(kept, 'work', 'work'), 0o700);
    rmSync(kept, { recursive: true, force: true });
    expect(captureFolders(parent)).toEqual(foldersBefore);
  });

  it('leaves no capture folder behind and no mount point in the workspace', async () => {
    const root = testdir({ 'a.txt': 'a\n' });
    const parent = testdir({});
    await runCommand({ captureFolder: parent }, { workspaceRoot: root, command: 'echo b > a.txt' });
    expect(captureFolders(parent)).toEqual([]);
    await settleCaptureFolders();
    expect(readdirSync(parent)).toEqual([]);
    expect(existsSync(join(root, '.clawsmith'))).toBe(false);
    expect(lstatSync(join(root, 'a.txt')).isFile()).toBe(true);
  });

  it('without capture, lists what a stat walk saw change as outside the checkpoint, and notes it for the manifest', async () => {
    const root = testdir({ 'a.txt': 'a\n', 'gone.txt': 'g\n', 'same.txt': 's\n' });
    const notes: string[] = [];
    const recorder: FileChangeRecorder = {
      beforeChange: () => undefined,
      afterChange: () => undefined,
      note: (text) => {
        notes.push(text);
      },
    };
    const result = await runCommand(
      { sandbox: 'off' },
      { workspaceRoot: root, command: 'echo x > made.txt; echo b >> a.txt; rm gone.txt', fileChanges: recorder },
    );
    expect(result.files).toEqual({
      captured: false,
      reason: 'the sandbox is off',
      changedOutsideCheckpoint: ['a.txt', 'gone.txt', 'made.txt'],
    });
    expect(notes).toEqual([
      'Changes made by `echo x > made.txt; echo b >> a.txt; rm gone.txt` are not recorded (the sandbox is off); changed outside the checkpoint: a.txt, gone.txt, made.txt.',
    ]);
    const content = createRunCommandTool({ sandbox: 'off' });
    expect(content.name).toBe('run_command');
  });
});
