import * as fs from 'node:fs';
import { linkSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createDirectWorkspaceWall, WORKSPACE_MUTATION_SOURCE, type WorkspaceMutation } from './index.js';

const folders: string[] = [];
function fileIn(content: string): { root: string; path: string } {
  const root = mkdtempSync(join(tmpdir(), 'clawsmith-overwrite-'));
  folders.push(root);
  const path = join(root, 'notes.txt');
  writeFileSync(path, content);
  return { root, path };
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

/** An overwrite of `path` that requires the version `lstat` finds there now. */
function overwriteOf(path: string, content: string, extra: Partial<WorkspaceMutation> = {}): WorkspaceMutation {
  const found = lstatSync(path);
  return {
    kind: 'overwrite',
    path,
    content: Buffer.from(content),
    device: found.dev,
    inode: found.ino,
    size: found.size,
    mtimeMs: found.mtimeMs,
    ctimeMs: found.ctimeMs,
    ...extra,
  } as WorkspaceMutation;
}

describe('overwrite', () => {
  it('rewrites the very file in place, shorter or longer, with the mode asked for', async () => {
    const { root, path } = fileIn('a longer text than the next one\n');
    const inode = lstatSync(path).ino;
    const wall = createDirectWorkspaceWall();
    await wall.apply({ workspaceRoot: root, mutations: [overwriteOf(path, 'short\n', { mode: 0o600, root })] });
    expect(readFileSync(path, 'utf8')).toBe('short\n');
    expect(statSync(path).mode & 0o7777).toBe(0o600);
    await wall.apply({ workspaceRoot: root, mutations: [overwriteOf(path, 'grown well past the old length\n')] });
    expect(readFileSync(path, 'utf8')).toBe('grown well past the old length\n');
    expect(lstatSync(path).ino).toBe(inode);
  });

  it('writes nothing when the file is not the version it was told, has other names, or is a link', async () => {
    const { root, path } = fileIn('what the person sees\n');
    const wall = createDirectWorkspaceWall();
    const stale = overwriteOf(path, 'undo\n');
    writeFileSync(path, 'what the person wrote\n');
    await expect(wall.apply({ workspaceRoot: root, mutations: [stale] })).rejects.toMatchObject({ code: 'ECHANGED' });
    // The same size, written again: the times still tell the versions apart.
    const sameSize = overwriteOf(path, 'undo\n');
    writeFileSync(path, 'WHAT THE PERSON WROTE\n');
    await expect(wall.apply({ workspaceRoot: root, mutations: [sameSize] })).rejects.toMatchObject({
      code: 'ECHANGED',
    });
    expect(readFileSync(path, 'utf8')).toBe('WHAT THE PERSON WROTE\n');

    linkSync(path, join(root, 'other-name.txt'));
    await expect(wall.apply({ workspaceRoot: root, mutations: [overwriteOf(path, 'undo\n')] })).rejects.toMatchObject({
      code: 'EMLINK',
    });
    expect(readFileSync(join(root, 'other-name.txt'), 'utf8')).toBe('WHAT THE PERSON WROTE\n');

    symlinkSync(path, join(root, 'link.txt'));
    const throughLink = { ...overwriteOf(path, 'undo\n'), path: join(root, 'link.txt') } as WorkspaceMutation;
    await expect(wall.apply({ workspaceRoot: root, mutations: [throughLink] })).rejects.toMatchObject({
      code: 'ELOOP',
    });
    expect(readFileSync(path, 'utf8')).toBe('WHAT THE PERSON WROTE\n');
  });

  it('runs from the shipped source with base64 contents, as in the sandboxed helper', () => {
    const { root, path } = fileIn('old\n');
    const createApplier = runInNewContext(WORKSPACE_MUTATION_SOURCE, { Buffer }) as (
      fileSystem: typeof fs,
    ) => (batch: unknown) => unknown;
    const mutation = overwriteOf(path, '') as Extract<WorkspaceMutation, { kind: 'overwrite' }>;
    const outcome = createApplier(fs)({
      workspaceRoot: root,
      mutations: [{ ...mutation, content: Buffer.from('shipped\n').toString('base64') }],
    });
    expect(outcome).toEqual({ ok: true });
    expect(readFileSync(path, 'utf8')).toBe('shipped\n');
  });
});
