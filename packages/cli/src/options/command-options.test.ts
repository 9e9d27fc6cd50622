import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliError } from '../cli-errors.js';
import { createProgram } from '../cli-program.js';
import { runOptions } from '../commands/run-turn-command.js';
import { parseCommandOptions } from './command-options.js';

function thrownBy(action: () => unknown): CliError {
  try {
    action();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected a CliError');
}

describe('parseCommandOptions', () => {
  it('returns the options the schema declares, typed, and drops the others', () => {
    const options = parseCommandOptions(
      runOptions,
      { workspace: '.', permissionMode: 'read-only', allow: ['Bash(npm test:*)'], databaseUrl: 'postgres://x' },
      'run',
    );
    expect(options).toEqual({ workspace: '.', permissionMode: 'read-only', allow: ['Bash(npm test:*)'] });
  });

  it('refuses a value outside the choices with a usage error that names the flag and where to look', () => {
    const error = thrownBy(() => parseCommandOptions(runOptions, { workspace: '.', permissionMode: 'yolo' }, 'run'));
    expect(error.code).toBe('invalid_option');
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('--permission-mode: ');
    expect(error.message).toContain('"accept-edits"');
    expect(error.message).toContain('`clawsmith run --help` lists the options and the values they accept');
  });

  it('names every wrong flag, in kebab case, when several are wrong', () => {
    const error = thrownBy(() =>
      parseCommandOptions(runOptions, { workspace: 3, permissionMode: 'default', systemPrompt: true }, 'run'),
    );
    expect(error.message).toMatch(/--workspace: .*string.*; --system-prompt: .*string/);
  });
});

describe('a command action reached with a wrong option value', () => {
  let home: string | undefined;
  afterEach(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('stops before doing anything, with the usage error', async () => {
    home = mkdtempSync(join(tmpdir(), 'clawsmith-options-'));
    const target = join(home, 'home');
    const program = createProgram();
    // An embedder of the command tree can set values commander never checked.
    program.hook('preAction', (_program, action) => void action.setOptionValue('dryRun', 'sometimes'));
    const parsing = program.parseAsync(['node', 'clawsmith', 'gc', '--home', target, '--json']);
    await expect(parsing).rejects.toMatchObject({ code: 'invalid_option', exitCode: 2 });
    await expect(parsing).rejects.toThrow(/--dry-run: .*boolean.*`clawsmith gc --help`/);
    expect(existsSync(target)).toBe(false);
  });
});
