import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli, writeScript } from './cli-harness.js';

const ESC = '\u001b';
const hostile = `${ESC}]52;c;cm0gLXJmIH4K${ESC}\\${ESC}[2J${ESC}[H${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\${ESC}[31mRED${ESC}[0m\rOVERWRITE`;

describe('terminal safety of the human transcript', () => {
  it('prints model text, tool titles, diffs and errors without any escape sequence, when piped and with NO_COLOR', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'plain\n' });
    const script = writeScript(home, [
      {
        text: `model says ${hostile}\n`,
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'a.txt', oldText: 'plain', newText: `dressed ${hostile}` } },
          { name: 'read_file', arguments: { path: `missing-${hostile}.txt` } },
        ],
      },
      { text: `bye ${hostile} and a reversed \u202Etxt.exe\u202C name, isolated \u2067x\u2069` },
    ]);
    const run = await runCli(
      ['run', '--permission-mode', 'accept-edits', '--script', script, '--workspace', workspace, 'go'],
      { home },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The file really holds the sequences: only the display was neutralised.
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toContain(`${ESC}]52;`);
    expect(run.stdout).toContain('model says');
    expect(run.stdout).toContain('RED');
    expect(run.stdout).toContain('✓ success edit_file');
    expect(run.stdout).toMatch(/✗ error \(\w+\) read_file/);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).not.toContain('\u0007');
    expect(run.stdout).not.toContain('\r');
    expect(run.stdout).not.toContain('\u009b');
    // Bidirectional controls from model text are shown by name, never passed to the terminal.
    expect(run.stdout).toContain('a reversed [U+202E]txt.exe[U+202C] name, isolated [U+2067]x[U+2069]');
    expect(run.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });
});
