import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

function settingsExample(): string {
  const section = README.slice(README.indexOf('## Settings files'));
  const match = /```json\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('the README has no settings example');
  return match[1]!;
}

describe('the README settings example', () => {
  it('is a valid file: clawsmith config lists each rule and hook with its source', async () => {
    const home = testdir();
    const workspace = testdir({});
    writeFileSync(join(home, 'settings.json'), settingsExample());
    const run = await runCli(['config', '--json', '--workspace', workspace, '--deny', 'Bash(curl:*)'], { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const entries = parseJsonLines(run.stdout);
    const file = join(home, 'settings.json');
    expect(entries.filter((entry) => entry.source === file).map((entry) => [entry.kind, entry.text])).toEqual([
      ['deny', 'Read(./secrets/**)'],
      ['deny', 'Edit(*.lock)'],
      ['deny', 'Bash(rm:*)'],
      ['deny', 'mcp__github__delete_repo'],
      ['ask', 'Bash(git push:*)'],
      ['ask', 'WebFetch(domain:example.com)'],
      ['allow', 'Bash(npm test:*)'],
      ['allow', 'Edit(src/**)'],
      ['allow', 'Read'],
      ['allow', 'mcp__github__get_issue'],
      ['hook', 'PreToolUse[Bash]: ./tools/check-command.sh'],
      ['hook', 'PostToolUse[Edit|Write]: npx prettier --write "$(jq -r .tool_input.path)" >&2'],
      ['hook', 'UserPromptSubmit[*]: ./tools/check-prompt.sh'],
    ]);
    expect(entries.at(-1)).toEqual({ kind: 'deny', text: 'Bash(curl:*)', source: '--deny', applied: true });
  });
});
