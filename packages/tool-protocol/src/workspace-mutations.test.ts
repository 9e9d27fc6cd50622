import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import { runInNewContext } from 'node:vm';
import { createDirectWorkspaceWall, WORKSPACE_MUTATION_SOURCE } from './index.js';

const folders: string[] = [];
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'clawsmith-mutations-'));
  folders.push(made);
  return made;
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('createDirectWorkspaceWall', () => {
  it('appends pieces to a file it created, applies the mode last, and never follows a link or creates', async () => {
    const root = folder();
    const wall = createDirectWorkspaceWall();
    await wall.apply({
      workspaceRoot: root,
      mutations: [
        { kind: 'create', path: join(root, 't'), content: Buffer.from('one '), mode: 0o600, root, sync: false },
        { kind: 'append', path: join(root, 't'), content: Buffer.from('two '), root, sync: false },
      ],
    });
    await wall.apply({
      workspaceRoot: root,
      mutations: [{ kind: 'append', path: join(root, 't'), content: Buffer.from('three'), mode: 0o440, root }],
    });
    expect(readFileSync(join(root, 't'), 'utf8')).toBe('one two three');
    expect(statSync(join(root, 't')).mode & 0o777).toBe(0o440);
    symlinkSync(join(root, 't'), join(root, 'link'));
    await expect(
      wall.apply({
        workspaceRoot: root,
        mutations: [{ kind: 'append', path: join(root, 'link'), content: Buffer.from('x') }],
      }),
    ).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(
      wall.apply({
        workspaceRoot: root,
        mutations: [{ kind: 'append', path: join(root, 'absent'), content: Buffer.from('x') }],
      }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(join(root, 'absent'))).toBe(false);
    expect(readFileSync(join(root, 't'), 'utf8')).toBe('one two three');
  });

  it('creates, links, renames, checks and removes files, stopping at the first failure with its code', async () => {
    const root = folder();
    const wall = createDirectWorkspaceWall();
    expect(wall.kind).toBe('none');
    await wall.apply({
      workspaceRoot: root,
      mutations: [
        { kind: 'mkdir', path: join(root, 'd') },
        { kind: 'create', path: join(root, 'd/t'), content: Buffer.from('hello'), mode: 0o640, root },
        { kind: 'link', from: join(root, 'd/t'), to: join(root, 'd/a') },
      ],
      cleanup: [join(root, 'd/t')],
    });
    expect(readFileSync(join(root, 'd/a'), 'utf8')).toBe('hello');
    expect(statSync(join(root, 'd/a')).mode & 0o777).toBe(0o640);
    expect(existsSync(join(root, 'd/t'))).toBe(false);
    const stats = lstatSync(join(root, 'd/a'));
    const failed = wall.apply({
      workspaceRoot: root,
      mutations: [
        {
          kind: 'expect',
          path: join(root, 'd/a'),
          device: stats.dev,
          inode: stats.ino,
          size: 4,
          mtimeMs: stats.mtimeMs,
        },
        { kind: 'unlink', path: join(root, 'd/a') },
      ],
    });
    await expect(failed).rejects.toMatchObject({ code: 'ECHANGED', mutationIndex: 0 });
    expect(existsSync(join(root, 'd/a'))).toBe(true);
    await expect(
      wall.apply({
        workspaceRoot: root,
        mutations: [{ kind: 'link', from: join(root, 'd/a'), to: join(root, 'd/a') }],
      }),
    ).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('refuses a created file that resolves outside its root, and removes it', async () => {
    const root = folder();
    const outside = folder();
    mkdirSync(join(outside, 'target'));
    symlinkSync(join(outside, 'target'), join(root, 'link'));
    const wall = createDirectWorkspaceWall();
    await expect(
      wall.apply({
        workspaceRoot: root,
        mutations: [{ kind: 'create', path: join(root, 'link/x'), content: Buffer.from('x'), root }],
      }),
    ).rejects.toMatchObject({ code: 'EOUTSIDE' });
    expect(existsSync(join(outside, 'target/x'))).toBe(false);
  });
});

describe('WORKSPACE_MUTATION_SOURCE', () => {
  it('is the applier as text that stands alone: it runs where only fs and the globals are, with base64 contents', () => {
    const root = folder();
    // A context of its own: nothing of this module's scope, as in the sandboxed helper.
    const createApplier = runInNewContext(WORKSPACE_MUTATION_SOURCE, { Buffer }) as (
      fileSystem: typeof fs,
    ) => (batch: unknown) => unknown;
    const apply = createApplier(fs);
    const outcome = apply({
      workspaceRoot: root,
      mutations: [
        { kind: 'mkdir', path: join(root, 'folder') },
        { kind: 'create', path: join(root, 'folder/a.txt'), content: Buffer.from('shipped\n').toString('base64') },
        { kind: 'unlink', path: join(root, 'missing') },
      ],
    });
    expect(outcome).toMatchObject({ ok: false, index: 2, code: 'ENOENT' });
    expect(readFileSync(join(root, 'folder/a.txt'), 'utf8')).toBe('shipped\n');
  });
});
