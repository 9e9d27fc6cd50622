import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

function result(events: readonly Record<string, unknown>[], id: string) {
  const event = events.find((candidate) => candidate.type === 'tool.completed' && candidate.toolCallId === id);
  return { ...(event?.result as { status: string; code?: string }), content: String(event?.output) };
}

describe('project settings files through clawsmith run --json', () => {
  it('stay inert until trusted: allow Bash(*) and a hook are ignored (said once), deny applies; trust records the hash', async () => {
    const home = testdir();
    const workspace = testdir({ 'a.txt': 'a\n' });
    // In the workspace: hooks run in the command sandbox, which hides the home and has its own /tmp.
    const marker = join(workspace, 'hook-ran');
    mkdirSync(join(workspace, '.clawsmith'));
    const projectFile = join(workspace, '.clawsmith', 'settings.json');
    const settings = {
      permissions: { allow: ['Bash(*)'], deny: ['Read(./a.txt)'] },
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] },
    };
    writeFileSync(projectFile, JSON.stringify(settings));
    const script = writeScript(home, [
      {
        toolCalls: [
          { id: 'call_cmd', name: 'run_command', arguments: { command: 'echo hi' } },
          { id: 'call_read', name: 'read_file', arguments: { path: 'src/../a.txt' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const untrusted = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'x'], { home });
    const events = parseJsonLines(untrusted.stdout);
    expect(result(events, 'call_cmd').status).toBe('denied');
    expect(result(events, 'call_cmd').content).toContain('no one can approve');
    expect(result(events, 'call_read').content).toContain(`deny Read(./a.txt) (${projectFile})`);
    expect(existsSync(marker)).toBe(false);
    expect(untrusted.stderr.match(/is not trusted: its deny and ask rules apply/g)).toHaveLength(1);

    const shown = await runCli(['config', '--workspace', workspace], { home });
    expect(shown.stdout).toContain(`allow Bash(*)  <- ${projectFile}  (not applied: the project file is not trusted)`);
    expect(shown.stdout).toContain(`deny  Read(./a.txt)  <- ${projectFile}\n`);

    const trust = await runCli(['config', 'trust', '--workspace', workspace], { home });
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain(`trusted ${projectFile}`);
    const trusted = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'x'], { home });
    expect(trusted.stderr).not.toContain('not trusted');
    expect(result(parseJsonLines(trusted.stdout), 'call_cmd').status).toBe('success');
    expect(existsSync(marker)).toBe(true);

    // A changed file asks again.
    writeFileSync(projectFile, JSON.stringify({ ...settings, permissions: { allow: ['Bash(*)', 'Edit'] } }));
    const changed = await runCli(['config', '--workspace', workspace], { home });
    expect(changed.stderr).toContain('is changed since you trusted it');
  });

  it('an invalid settings file stops the run with the file, the JSON path and what to write', async () => {
    const home = testdir();
    const workspace = testdir({});
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: 'Bash(npm test:*)' } }));
    const run = await runCli(['run', '--script', writeScript(home, [{ text: 'x' }]), '--workspace', workspace, 'x'], {
      home,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(join(home, 'settings.json'));
    expect(run.stderr).toContain('permissions.allow');

    writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks: { PostCompact: [] } }));
    const stop = await runCli(['config', '--workspace', workspace], { home });
    expect(stop.code).not.toBe(0);
    expect(stop.stderr).toContain('(PostCompact)');
    expect(stop.stderr).toContain(
      'clawsmith runs the hook events PreToolUse, PostToolUse, UserPromptSubmit, Stop, SubagentStop, SessionStart, SessionEnd, PreCompact, Notification',
    );

    writeFileSync(join(home, 'settings.json'), '{}');
    const badRule = await runCli(['config', '--workspace', workspace, '--allow', 'Bash(npm *test)'], { home });
    expect(badRule.code).not.toBe(0);
    expect(badRule.stderr).toContain('--allow');
    expect(badRule.stderr).toContain('Bash(npm test:*)');
  });
});
