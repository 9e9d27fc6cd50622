import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { terminalStyle } from '../terminal/terminal-style.js';
import { approvalPreview, PREVIEW_LIMITS } from './approval-preview.js';

const plain = terminalStyle({ isTTY: false } as NodeJS.WriteStream, {});

describe('approvalPreview', () => {
  it('shows an edit as a diff hunk placed in the file, with context lines', () => {
    const dir = testdir({ 'src/a.ts': 'one\ntwo\nthree\nfour\nfive\nsix\n' });
    const lines = approvalPreview(
      { toolName: 'edit_file', input: { path: 'src/a.ts', oldText: 'four', newText: 'FOUR\nFOUR-B' } },
      dir,
      plain,
    );
    expect(lines).toEqual([
      '--- src/a.ts',
      '+++ src/a.ts',
      '@@ -2,5 +2,6 @@',
      ' two',
      ' three',
      '-four',
      '+FOUR',
      '+FOUR-B',
      ' five',
      ' six',
    ]);
  });

  it('shows an edit whose text is not in the file, and says it will fail', () => {
    const dir = testdir({ 'a.txt': 'hello\n' });
    const lines = approvalPreview(
      { toolName: 'edit_file', input: { path: 'a.txt', oldText: 'gone', newText: 'new' } },
      dir,
      plain,
    );
    expect(lines[2]).toContain('not in the file');
    expect(lines.slice(3)).toEqual(['-gone', '+new']);
  });

  it('bounds a huge edit and strips terminal escapes', () => {
    const dir = testdir({ 'a.txt': 'x\n' });
    const newText = Array.from({ length: 500 }, (_, index) => `line ${index}\u001b]52;c;ZXZpbA==\u0007`).join('\n');
    const lines = approvalPreview(
      { toolName: 'edit_file', input: { path: 'a.txt', oldText: 'x', newText } },
      dir,
      plain,
    );
    expect(lines.length).toBeLessThanOrEqual(PREVIEW_LIMITS.diffLines + 4 + PREVIEW_LIMITS.contextLines);
    expect(lines.at(-1)).toMatch(/more changed line/);
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(lines.join('\n')).not.toContain('\u0007');
  });

  it('shows the first lines of a new file, and whether it replaces one', () => {
    const dir = testdir({ 'old.txt': 'was here\n' });
    const content = Array.from({ length: 30 }, (_, index) => `row ${index}`).join('\n');
    const fresh = approvalPreview({ toolName: 'write_file', input: { path: 'new.txt', content } }, dir, plain);
    expect(fresh[0]).toBe(`new file new.txt: 30 line(s), ${Buffer.byteLength(content)} byte(s)`);
    expect(fresh.slice(1, 3)).toEqual(['+row 0', '+row 1']);
    expect(fresh).toHaveLength(1 + PREVIEW_LIMITS.newFileLines + 1);
    const replacing = approvalPreview({ toolName: 'write_file', input: { path: 'old.txt', content: 'x' } }, dir, plain);
    expect(replacing[0]).toMatch(/^replaces old\.txt/);
  });

  it('does not read files outside the workspace', () => {
    const outside = testdir({ 'secret.txt': 'top secret\n' });
    const dir = testdir({});
    const lines = approvalPreview(
      { toolName: 'edit_file', input: { path: `${outside}/secret.txt`, oldText: 'top', newText: 'x' } },
      dir,
      plain,
    );
    expect(lines.join('\n')).not.toContain('secret\n');
    expect(lines[2]).toContain('not in the file');
  });

  it('shows a command and its working folder', () => {
    const lines = approvalPreview(
      { toolName: 'run_command', input: { command: 'npm test\necho done', cwd: 'pkg', timeoutSeconds: 30 } },
      '/work/space',
      plain,
    );
    expect(lines).toEqual(['$ npm test', '> echo done', 'in /work/space/pkg · timeout 30s']);
    expect(approvalPreview({ toolName: 'read_file', input: { path: 'a' } }, '/w', plain)).toEqual([]);
  });
});
