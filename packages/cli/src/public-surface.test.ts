import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/cli public surface', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'CLI_ERROR_CODES',
      'CLI_PERMISSION_MODES',
      'CLI_PROVIDERS',
      'CliError',
      'DEMO_SCRIPT_URL',
      'EXIT_CODES',
      'SLASH_HELP',
      'createProgram',
      'formatTodos',
      'loadDemoScript',
      'oneLine',
      'parseApprovalAnswer',
      'parseSlashCommand',
      'reportError',
      'runCli',
      'summarizeEvent',
      'terminalSafe',
      'terminalStyle',
    ]);
  });

  it('keeps its exit codes, providers and permission modes', () => {
    expect(api.EXIT_CODES).toEqual({ ok: 0, failed: 1, usage: 2, conflict: 3, interrupted: 130 });
    expect(api.CLI_PROVIDERS).toEqual(['openai', 'anthropic']);
    expect(api.CLI_PERMISSION_MODES).toEqual(['default', 'accept-edits', 'read-only', 'full-auto']);
  });

  it('documents every error code and the subcommands in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const code of api.CLI_ERROR_CODES) expect(readme).toContain(`\`${code}\``);
    const commands = api.createProgram().commands.map((command) => command.name());
    expect(commands.length).toBeGreaterThan(10);
    for (const name of commands) expect(readme, name).toContain(`clawsmith ${name}`);
  });

  it('the repository README says `clawsmith web` serves the browser page (it is built)', () => {
    const root = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const webRow = root.split('\n').find((line) => line.includes('[`@clawsmith/web`]'));
    expect(webRow).toContain('the browser page served at `/`');
    expect(root).not.toContain('not built yet');
  });
});
