import { execFileSync } from 'node:child_process';
import { closeSync, openSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';

const readFile = toolNamed('read_file');

function read(root: string, input: Record<string, unknown>) {
  return runTool(readFile, input, testContext(root));
}

describe('read_file', () => {
  it('returns a small file whole, with a text display', async () => {
    const root = testdir({ 'src/a.ts': 'export const a = 1;\n' });
    const result = await read(root, { path: 'src/a.ts' });
    expect(result.status).toBe('success');
    expect(result.content).toBe('export const a = 1;\n');
    expect(result.display).toMatchObject({ kind: 'text', title: 'Read src/a.ts' });
  });

  it('returns at most the limit, says it truncated and how to read on, and never includes the extra byte', async () => {
    const root = testdir({ 'big.txt': `${'a'.repeat(100_000)}Z-rest` });
    const result = await read(root, { path: 'big.txt' });
    const [text, note] = result.content.split('\n\n[');
    expect(text).toBe('a'.repeat(100_000));
    expect(result.content).not.toContain('Z');
    expect(note).toContain('Truncated: showing bytes 0-100000 of 100006');
    expect(note).toContain('offset 100000');
    const rest = await read(root, { path: 'big.txt', offset: 100_000 });
    expect(rest.content.startsWith('Z-rest')).toBe(true);
  });

  it('honours a smaller length and a byte offset, and cuts on a character boundary', async () => {
    const root = testdir({ 'u.txt': 'ab€cd' });
    const result = await read(root, { path: 'u.txt', length: 3 });
    expect(result.content.startsWith('ab\n\n[Truncated: showing bytes 0-2 of 7')).toBe(true);
    expect((await read(root, { path: 'u.txt', offset: 2, length: 3 })).content).toMatch(
      /^€\n\n\[Truncated: showing bytes 2-5 of 7 .*offset 5/,
    );
    expect((await read(root, { path: 'u.txt', offset: 5 })).content).toBe('cd\n\n[Bytes 5-7 of 7 in u.txt.]');
    expect((await read(root, { path: 'u.txt', offset: 99 })).code).toBe('invalid_range');
  });

  it('reads a line range', async () => {
    const lines = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n');
    const root = testdir({ 'l.txt': `${lines}\n` });
    expect((await read(root, { path: 'l.txt', startLine: 3, endLine: 4 })).content).toBe(
      'line 3\nline 4\n\n\n[Lines 3-4 of l.txt: bytes 14-28 of 71.]',
    );
    expect((await read(root, { path: 'l.txt', startLine: 10 })).content.startsWith('line 10\n')).toBe(true);
    expect((await read(root, { path: 'l.txt', startLine: 20 })).code).toBe('invalid_range');
    await expect(readFile.inputSchema.parseAsync({ path: 'l.txt', offset: 1, startLine: 2 })).rejects.toThrow(
      /either a byte range/,
    );
  });

  it('reports binary files without dumping them', async () => {
    const root = testdir({ 'img.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]) });
    const result = await read(root, { path: 'img.png' });
    expect(result.status).toBe('success');
    expect(result.content).toBe('img.png is a binary file (9 bytes); its content is not shown.');
  });

  it('refuses a folder, a FIFO (without hanging), a symlink to /dev/zero and a symlink to /etc', async () => {
    const root = testdir({ folder: { 'x.txt': 'x' }, zero: { symlink: '/dev/zero' }, etc: { symlink: '/etc' } });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const before = snapshotTree(root);
    expect(await read(root, { path: 'folder' })).toMatchObject({
      code: 'not_a_file',
      content: expect.stringContaining('a folder'),
    });
    expect(await read(root, { path: 'pipe' })).toMatchObject({
      code: 'not_a_file',
      content: expect.stringContaining('FIFO'),
    });
    expect(await read(root, { path: 'zero' })).toMatchObject({
      code: 'path_outside_workspace',
      content: 'Path is outside the workspace: zero',
    });
    expect(await read(root, { path: 'etc/passwd' })).toMatchObject({ code: 'path_outside_workspace' });
    expect(await read(root, { path: '../../etc/passwd' })).toMatchObject({ code: 'path_outside_workspace' });
    expect(await read(root, { path: 'missing.txt' })).toMatchObject({ code: 'file_not_found' });
    expect(snapshotTree(root)).toEqual(before);
  });

  it('reads a sparse 10 GB file as binary, and a 50 MB single-line file only up to the limit', async () => {
    const root = testdir({});
    const sparse = join(root, 'sparse.bin');
    closeSync(openSync(sparse, 'w'));
    truncateSync(sparse, 10 * 1024 ** 3);
    expect((await read(root, { path: 'sparse.bin' })).content).toContain('binary file (10737418240 bytes)');

    const long = join(root, 'long.txt');
    const descriptor = openSync(long, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (let index = 0; index < 50; index += 1) writeSync(descriptor, chunk);
    closeSync(descriptor);
    const result = await read(root, { path: 'long.txt' });
    expect(result.content.split('\n\n[')[0]!.length).toBe(100_000);
    expect(result.content).toContain('of 52428800');
    const lineRange = await read(root, { path: 'long.txt', startLine: 1, endLine: 1 });
    expect(lineRange.content).toContain('Truncated');
  });
});
