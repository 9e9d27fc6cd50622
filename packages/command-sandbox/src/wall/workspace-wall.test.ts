import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { testdir } from '@clawsmith/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspaceWall } from '../index.js';

const wall = createWorkspaceWall({ mode: 'bubblewrap' });
afterAll(() => wall.close());

describe('createWorkspaceWall', () => {
  it('applies mutations inside the workspace through its helper', async () => {
    const workspace = testdir({ 'src/old.txt': 'old' });
    expect(wall.kind).toBe('bubblewrap');
    await wall.apply({
      workspaceRoot: workspace,
      mutations: [
        { kind: 'create', path: `${workspace}/src/.t`, content: Buffer.from('new'), root: workspace },
        { kind: 'link', from: `${workspace}/src/.t`, to: `${workspace}/src/new.txt` },
        { kind: 'rename', from: `${workspace}/src/old.txt`, to: `${workspace}/src/moved.txt` },
        { kind: 'mkdir', path: `${workspace}/made` },
      ],
      cleanup: [`${workspace}/src/.t`],
    });
    expect(readFileSync(`${workspace}/src/new.txt`, 'utf8')).toBe('new');
    expect(readFileSync(`${workspace}/src/moved.txt`, 'utf8')).toBe('old');
    expect(existsSync(`${workspace}/src/.t`)).toBe(false);
    expect(existsSync(`${workspace}/made`)).toBe(true);
  });

  it('overwrites a file in place only while it is the version given', async () => {
    const workspace = testdir({ 'notes.txt': 'the agent wrote a long line\n' });
    const path = `${workspace}/notes.txt`;
    const found = lstatSync(path);
    const figures = {
      device: found.dev,
      inode: found.ino,
      size: found.size,
      mtimeMs: found.mtimeMs,
      ctimeMs: found.ctimeMs,
    };
    const overwrite = {
      kind: 'overwrite',
      path,
      content: Buffer.from('earlier\n'),
      root: workspace,
      ...figures,
    } as const;
    await wall.apply({ workspaceRoot: workspace, mutations: [overwrite] });
    expect(readFileSync(path, 'utf8')).toBe('earlier\n');
    expect(lstatSync(path).ino).toBe(found.ino);
    // The same figures again: the file is no longer that version, and stays as it is.
    await expect(wall.apply({ workspaceRoot: workspace, mutations: [overwrite] })).rejects.toMatchObject({
      code: 'ECHANGED',
    });
    expect(readFileSync(path, 'utf8')).toBe('earlier\n');
  });

  it('appends to a file in later batches (a large body sent piece by piece)', async () => {
    const workspace = testdir({});
    const pieces = [randomBytes(70_000), randomBytes(70_000), randomBytes(10)];
    const name = `${workspace}/.restore`;
    await wall.apply({
      workspaceRoot: workspace,
      mutations: [{ kind: 'create', path: name, content: pieces[0]!, mode: 0o600, root: workspace, sync: false }],
    });
    await wall.apply({
      workspaceRoot: workspace,
      mutations: [{ kind: 'append', path: name, content: pieces[1]!, root: workspace, sync: false }],
    });
    await wall.apply({
      workspaceRoot: workspace,
      mutations: [{ kind: 'append', path: name, content: pieces[2]!, mode: 0o640, root: workspace }],
    });
    expect(readFileSync(name).equals(Buffer.concat(pieces))).toBe(true);
  });

  it('carries batches larger than one read and batches sent back to back, in order', async () => {
    const workspace = testdir({});
    const large = randomBytes(300_000);
    const name = `${workspace}/größer ✓.bin`;
    const pending = [
      wall.apply({ workspaceRoot: workspace, mutations: [{ kind: 'create', path: name, content: large }] }),
      ...Array.from({ length: 20 }, (_, index) =>
        wall.apply({ workspaceRoot: workspace, mutations: [{ kind: 'mkdir', path: `${workspace}/d${index}` }] }),
      ),
      wall.apply({ workspaceRoot: workspace, mutations: [{ kind: 'mkdir', path: `${workspace}/d3` }] }),
      wall.apply({ workspaceRoot: workspace, mutations: [{ kind: 'rmdir', path: `${workspace}/d4` }] }),
    ];
    const settled = await Promise.allSettled(pending);
    expect(settled.map((outcome) => outcome.status)).toEqual([
      ...Array.from({ length: 21 }, () => 'fulfilled'),
      'rejected',
      'fulfilled',
    ]);
    expect((settled[21] as PromiseRejectedResult).reason).toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(name).equals(large)).toBe(true);
    expect(existsSync(`${workspace}/d19`)).toBe(true);
    expect(existsSync(`${workspace}/d4`)).toBe(false);
  });

  it('cannot change anything outside the workspace, whatever path leads there', async () => {
    const workspace = testdir({ 'inside.txt': 'in' });
    const outside = testdir({ 'victim.txt': 'keep' });
    mkdirSync(`${outside}/folder`);
    symlinkSync(outside, `${workspace}/d`);
    const attempts = [
      { kind: 'create', path: `${workspace}/d/planted`, content: Buffer.from('x') },
      { kind: 'link', from: `${workspace}/inside.txt`, to: `${workspace}/d/linked` },
      { kind: 'rename', from: `${workspace}/inside.txt`, to: `${workspace}/d/victim.txt` },
      { kind: 'unlink', path: `${workspace}/d/victim.txt` },
      { kind: 'unlink', path: `${outside}/victim.txt` },
      { kind: 'mkdir', path: `${workspace}/d/folder/sub` },
    ] as const;
    for (const mutation of attempts) {
      await expect(wall.apply({ workspaceRoot: workspace, mutations: [mutation] })).rejects.toMatchObject({
        code: expect.stringMatching(/^(EROFS|EXDEV)$/),
      });
    }
    expect(readFileSync(`${outside}/victim.txt`, 'utf8')).toBe('keep');
    expect(existsSync(`${outside}/planted`)).toBe(false);
    expect(existsSync(`${outside}/linked`)).toBe(false);
    expect(existsSync(`${outside}/folder/sub`)).toBe(false);
    expect(readFileSync(`${workspace}/inside.txt`, 'utf8')).toBe('in');
    writeFileSync(`${workspace}/inside.txt`, 'still writable');
  });

  it('refuses every mutation with sandbox_unavailable when its bubblewrap is not trusted', async () => {
    const workspace = testdir({});
    const untrusted = createWorkspaceWall({ mode: 'bubblewrap', bubblewrapProgram: `${workspace}/bwrap` });
    await expect(
      untrusted.apply({ workspaceRoot: workspace, mutations: [{ kind: 'mkdir', path: `${workspace}/x` }] }),
    ).rejects.toMatchObject({ code: 'sandbox_unavailable' });
    expect(existsSync(`${workspace}/x`)).toBe(false);
    expect(createWorkspaceWall({ mode: 'off' }).kind).toBe('none');
  });
});

describe('createWorkspaceWall and protected paths', () => {
  it('keeps the protected paths of the workspace read-only inside its helper, also one created later', async () => {
    const workspace = testdir({
      '.git': { config: '[core]\n', HEAD: 'ref: refs/heads/main\n', hooks: {} },
      'vendor/lib/.git': { config: '[core]\n', HEAD: 'ref: refs/heads/main\n', objects: {}, refs: {} },
      'src/a.txt': 'a',
    });
    // What a raced path check would hand the wall: a path inside a protected folder.
    const planted = [
      { kind: 'create', path: `${workspace}/.git/hooks/pre-commit`, content: Buffer.from('evil') },
      { kind: 'create', path: `${workspace}/vendor/lib/.git/config.new`, content: Buffer.from('evil') },
      { kind: 'rename', from: `${workspace}/src/a.txt`, to: `${workspace}/.git/config` },
      { kind: 'unlink', path: `${workspace}/vendor/lib/.git/HEAD` },
    ] as const;
    for (const mutation of planted)
      await expect(wall.apply({ workspaceRoot: workspace, mutations: [mutation] })).rejects.toMatchObject({
        code: expect.stringMatching(/^(EROFS|EXDEV|EBUSY)$/),
      });
    expect(existsSync(`${workspace}/.git/hooks/pre-commit`)).toBe(false);
    expect(readFileSync(`${workspace}/.git/config`, 'utf8')).toBe('[core]\n');
    expect(existsSync(`${workspace}/vendor/lib/.git/HEAD`)).toBe(true);
    await wall.apply({
      workspaceRoot: workspace,
      mutations: [{ kind: 'create', path: `${workspace}/src/b.txt`, content: Buffer.from('b') }],
    });
    expect(readFileSync(`${workspace}/src/b.txt`, 'utf8')).toBe('b');

    // A .vscode made after the helper started (by a command, say) is read-only to the next batch.
    mkdirSync(`${workspace}/.vscode`);
    await expect(
      wall.apply({
        workspaceRoot: workspace,
        mutations: [{ kind: 'create', path: `${workspace}/.vscode/tasks.json`, content: Buffer.from('{}') }],
      }),
    ).rejects.toMatchObject({ code: 'EROFS' });
    expect(existsSync(`${workspace}/.vscode/tasks.json`)).toBe(false);
  });
});

/** Pids of this process's descendants whose command line (or an ancestor's below us) names `marker`. */
function helperProcesses(marker: string): number[] {
  const children = (pid: number) =>
    readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  const tree = (pid: number): number[] => [pid, ...children(pid).flatMap(tree)];
  return children(process.pid)
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker))
    .flatMap(tree);
}

/** Gone or a zombie: either way its descriptors are closed. */
function exited(pid: number): boolean {
  try {
    return / Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('createWorkspaceWall when its helper dies', () => {
  it('gives a batch to a new helper when the old one died idle, and refuses nothing else', async () => {
    const workspace = testdir({});
    await wall.apply({ workspaceRoot: workspace, mutations: [{ kind: 'mkdir', path: `${workspace}/before` }] });
    const helper = helperProcesses(workspace);
    expect(helper.length).toBeGreaterThanOrEqual(2);
    // The helper program itself (the last of the tree): bubblewrap's two processes end after it.
    process.kill(helper.at(-1)!, 'SIGKILL');
    // Waits without a turn of the event loop: the helper's exit is not seen before the next batch
    // finds its pipe without a reader.
    while (!helper.every(exited)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    await wall.apply({ workspaceRoot: workspace, mutations: [{ kind: 'mkdir', path: `${workspace}/after` }] });
    expect(existsSync(`${workspace}/after`)).toBe(true);
    const replacement = helperProcesses(workspace);
    expect(replacement.length).toBeGreaterThanOrEqual(2);
    expect(replacement).not.toContain(helper[0]);
  });

  it('hands its pipes to no other child process', async () => {
    const workspace = testdir({});
    await wall.apply({ workspaceRoot: workspace, mutations: [{ kind: 'mkdir', path: `${workspace}/x` }] });
    const ours = readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(ours.filter((target) => target.includes('clawsmith-pipes-')).length).toBeGreaterThanOrEqual(2);
    const listed = execFileSync('/bin/ls', ['-l', '/proc/self/fd'], { encoding: 'utf8' });
    expect(listed).toContain('/proc/');
    expect(listed).not.toContain('clawsmith-pipes-');
  });
});
