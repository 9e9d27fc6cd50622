import { execFileSync } from 'node:child_process';
import { linkSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotTree, testdir } from '@clawsmith/test-utils';
import { runTool, testContext, toolNamed } from './__fixtures__/tool-context.js';
import { sha256 } from './regular-file.js';

const editFile = toolNamed('edit_file');
const source = ['function greet() {', "  return 'hello';", '}', '', 'function part() {', '  return 1;', '}', ''].join(
  '\n',
);

describe('edit_file', () => {
  it('replaces text that occurs once, keeps the mode and records the original bytes and the new hash', async () => {
    const root = testdir({ 'run.sh': { content: source, mode: 0o755 } });
    const context = testContext(root);
    const result = await runTool(
      editFile,
      { path: 'run.sh', oldText: "return 'hello';", newText: "return 'hi';" },
      context,
    );
    expect(result).toMatchObject({
      status: 'success',
      content: 'Edited run.sh: replaced 1 line at line 2 with 1 line.',
    });
    expect(result.display).toMatchObject({ kind: 'diff', body: "@@ -2,1 +2,1 @@\n-return 'hello';\n+return 'hi';" });
    const edited = source.replace("'hello'", "'hi'");
    expect(readFileSync(join(root, 'run.sh'), 'utf8')).toBe(edited);
    expect(statSync(join(root, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(context.changes).toEqual([
      { phase: 'before', path: 'run.sh', image: { state: 'file', content: Buffer.from(source), mode: 0o755 } },
      {
        phase: 'after',
        path: 'run.sh',
        image: { state: 'file', sha256: sha256(edited), content: Buffer.from(edited) },
      },
    ]);
    expect(Object.keys(snapshotTree(root))).toEqual(['run.sh']);
  });

  it('says the old text was not found and shows the closest region with line numbers', async () => {
    const root = testdir({ 'a.ts': source });
    const before = snapshotTree(root);
    const stale = await runTool(
      editFile,
      { path: 'a.ts', oldText: 'function part() {\n  return 2;\n}', newText: 'x' },
      testContext(root),
    );
    expect(stale.code).toBe('old_text_not_found');
    expect(stale.content).toContain('The old text was not found in a.ts');
    expect(stale.content).toContain('The closest region is lines 5-7:\n5 | function part() {\n6 |   return 1;\n7 | }');
    const indented = await runTool(
      editFile,
      { path: 'a.ts', oldText: "    return 'hello';", newText: 'x' },
      testContext(root),
    );
    expect(indented.content).toContain('lines 2-2 (it differs only in indentation, trailing spaces or line endings)');
    const typo = await runTool(
      editFile,
      { path: 'a.ts', oldText: 'function gret() {', newText: 'x' },
      testContext(root),
    );
    expect(typo.content).toContain('The closest region is lines 1-1:\n1 | function greet() {');
    const unrelated = await runTool(editFile, { path: 'a.ts', oldText: 'zzzz qqqq', newText: 'x' }, testContext(root));
    expect(unrelated.content).toContain('Nothing in the file resembles it.');
    expect(snapshotTree(root)).toEqual(before);
  });

  it('refuses text that occurs several times with the count and the line numbers', async () => {
    const root = testdir({ 'a.ts': source });
    const before = snapshotTree(root);
    const result = await runTool(editFile, { path: 'a.ts', oldText: '}', newText: '};' }, testContext(root));
    expect(result).toMatchObject({
      code: 'old_text_not_unique',
      content:
        'The old text must occur exactly once; provide more surrounding context. It occurs 2 times in a.ts, at lines 3, 7.',
    });
    expect(snapshotTree(root)).toEqual(before);
  });

  it('replaces a hard link to a file outside the workspace instead of writing through it', async () => {
    const outside = testdir({ 'shared.txt': 'outside content\n' });
    const root = testdir({});
    linkSync(join(outside, 'shared.txt'), join(root, 'linked.txt'));
    const result = await runTool(
      editFile,
      { path: 'linked.txt', oldText: 'outside', newText: 'inside' },
      testContext(root),
    );
    expect(result.status).toBe('success');
    expect(readFileSync(join(root, 'linked.txt'), 'utf8')).toBe('inside content\n');
    expect(readFileSync(join(outside, 'shared.txt'), 'utf8')).toBe('outside content\n');
    expect(statSync(join(outside, 'shared.txt')).nlink).toBe(1);
  });

  it('refuses binary files, oversized results, folders, FIFOs, outside links and protected files, changing nothing', async () => {
    const root = testdir({
      'bin.dat': new Uint8Array([1, 0, 2]),
      'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      'a.txt': 'abc',
      folder: {},
      passwd: { symlink: '/etc/passwd' },
      '.git/config': '[core]\n',
    });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const before = snapshotTree(root);
    const small = toolNamed('edit_file', { limits: { writeBytes: 5 } });
    const cases: [unknown, Record<string, string>, string][] = [
      [editFile, { path: 'bin.dat', oldText: '\u0001', newText: 'x' }, 'binary_file'],
      [editFile, { path: 'latin1.txt', oldText: 'caf', newText: 'x' }, 'binary_file'],
      [small, { path: 'a.txt', oldText: 'b', newText: 'bbbbbb' }, 'file_too_large'],
      [editFile, { path: 'folder', oldText: 'a', newText: 'b' }, 'not_a_file'],
      [editFile, { path: 'pipe', oldText: 'a', newText: 'b' }, 'not_a_file'],
      [editFile, { path: 'passwd', oldText: 'root', newText: 'evil' }, 'path_outside_workspace'],
      [editFile, { path: '.git/config', oldText: '[core]', newText: '[core]\n\thooksPath = /tmp' }, 'protected_path'],
      [editFile, { path: 'missing.txt', oldText: 'a', newText: 'b' }, 'file_not_found'],
    ];
    for (const [tool, input, code] of cases) {
      const context = testContext(root);
      const result = await runTool(tool as typeof editFile, input, context);
      expect(result.code, input.path).toBe(code);
      expect(context.changes, input.path).toEqual([]);
      expect(snapshotTree(root), input.path).toEqual(before);
    }
  });

  it('refuses with a retryable error when the file changes between reading and replacing', async () => {
    const root = testdir({ 'a.txt': 'one two' });
    const context = testContext(root, {
      beforeChange: () => writeFileSync(join(root, 'a.txt'), 'someone else wrote this, longer'),
    });
    const result = await runTool(editFile, { path: 'a.txt', oldText: 'one', newText: '1' }, context);
    expect(result).toMatchObject({ code: 'file_changed', retryable: true });
    expect(snapshotTree(root)).toEqual({ 'a.txt': expect.stringContaining(sha256('someone else wrote this, longer')) });
  });
});
