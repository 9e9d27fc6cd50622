import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';

type Event = Record<string, unknown>;

function completed(events: readonly Event[], id: string): { status: string; code?: string; content: string } {
  const event = events.find((candidate) => candidate.type === 'tool.completed' && candidate.toolCallId === id);
  if (!event) throw new Error(`no tool.completed for ${id}`);
  return { ...(event.result as { status: string; code?: string }), content: String(event.output) };
}

function writeSettings(file: string, settings: unknown): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** A hook script in the workspace's `hooks/` folder: hooks run in the command sandbox, which sees the workspace (not the private /tmp or the clawsmith home). */
function executable(workspace: string, name: string, text: string): string {
  const file = join(workspace, 'hooks', name);
  mkdirSync(join(workspace, 'hooks'), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

const BLOCK_RM = `#!/bin/bash
input=$(cat)
if printf '%s' "$input" | grep -q '"command":"rm '; then
  echo "rm is blocked by the team's policy; move files with git mv instead" >&2
  exit 2
fi
exit 0
`;

const REWRITE = `#!/usr/bin/env node
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => {
  const call = JSON.parse(text);
  if (call.tool_input.command !== 'npm run lnt') return;
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { ...call.tool_input, command: 'echo rewritten by the hook' },
      additionalContext: 'the hook corrected a typo in the command',
    },
  }));
});
`;

const FORMAT = `#!/usr/bin/env node
const { readFileSync, writeFileSync } = require('node:fs');
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => {
  const call = JSON.parse(text);
  const path = call.tool_input.path;
  const before = readFileSync(path, 'utf8');
  const after = before.replace(/[ \\t]+$/gm, '');
  writeFileSync(path, after);
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'formatter: trimmed trailing spaces in ' + path },
  }));
});
`;

describe('settings hooks through clawsmith run --json', () => {
  it('a shell hook blocks rm (exit 2, stderr to the model) while a rule allows echo', async () => {
    const home = testdir();
    const workspace = testdir({ 'keep.txt': 'keep\n' });
    const hook = executable(workspace, 'block-rm.sh', BLOCK_RM);
    writeSettings(join(home, 'settings.json'), {
      permissions: { allow: ['Bash(echo:*)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook, timeout: 20 }] }] },
    });
    const script = writeScript(home, [
      {
        toolCalls: [
          { id: 'call_rm', name: 'run_command', arguments: { command: 'rm keep.txt' } },
          { id: 'call_echo', name: 'run_command', arguments: { command: 'echo allowed' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const run = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'Clean up'], { home });
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const rm = completed(events, 'call_rm');
    expect(rm.status).toBe('denied');
    expect(rm.code).toBe('hook_denied');
    expect(rm.content).toContain("rm is blocked by the team's policy");
    expect(existsSync(join(workspace, 'keep.txt'))).toBe(true);
    const echo = completed(events, 'call_echo');
    expect(echo.status).toBe('success');
    expect(echo.content).toContain('allowed');
    const decision = events.find(
      (event) => event.type === 'tool.decision' && event.toolCallId === 'call_echo' && event.stage === 'permission',
    );
    expect(decision?.reason).toContain(`allow Bash(echo:*) (${join(home, 'settings.json')})`);
  });

  it('a Node hook rewrites a command through updatedInput, and its context reaches the model', async () => {
    const home = testdir();
    const workspace = testdir({});
    const hook = executable(workspace, 'rewrite.js', REWRITE);
    writeSettings(join(home, 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: hook }] }] },
    });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_lint', name: 'run_command', arguments: { command: 'npm run lnt' } }] },
      { text: 'Done.' },
    ]);
    const run = await runCli(
      ['run', '--json', '--script', script, '--workspace', workspace, '--allow', 'Bash(echo:*)', 'Lint'],
      { home },
    );
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const lint = completed(events, 'call_lint');
    expect(lint.status).toBe('success');
    expect(lint.content).toContain('rewritten by the hook');
    expect(lint.content).toContain('[hook] the hook corrected a typo in the command');
    const started = events.find((event) => event.type === 'tool.started' && event.toolCallId === 'call_lint');
    expect(started?.summary).toContain('echo rewritten by the hook');
  });

  it('an updatedInput the tool schema refuses denies the call, naming the hook', async () => {
    const home = testdir();
    const workspace = testdir({});
    const hook = executable(
      workspace,
      'bad.sh',
      `#!/bin/bash\ncat >/dev/null\necho '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":42}}}'\n`,
    );
    writeSettings(join(home, 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] },
    });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_x', name: 'run_command', arguments: { command: 'echo hi' } }] },
      { text: 'Done.' },
    ]);
    const run = await runCli(
      ['run', '--json', '--script', script, '--workspace', workspace, '--permission-mode', 'full-auto', 'x'],
      { home },
    );
    const result = completed(parseJsonLines(run.stdout), 'call_x');
    expect(result.code).toBe('hook_denied');
    expect(result.content).toContain('does not match the schema of run_command');
    expect(result.content).toContain(hook);
  });

  it('a formatter runs after each edit and the model sees its feedback', async () => {
    const home = testdir();
    const workspace = testdir({ 'notes.txt': 'old line\n' });
    const hook = executable(workspace, 'format.js', FORMAT);
    writeSettings(join(home, 'settings.json'), {
      hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: hook }] }] },
    });
    const script = writeScript(home, [
      {
        toolCalls: [
          {
            id: 'call_edit',
            name: 'edit_file',
            arguments: { path: 'notes.txt', oldText: 'old line', newText: 'new line   ' },
          },
        ],
      },
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { text: 'Done.' },
    ]);
    const run = await runCli(
      ['run', '--json', '--script', script, '--workspace', workspace, '--permission-mode', 'accept-edits', 'Edit'],
      { home },
    );
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(completed(events, 'call_edit').content).toContain('[hook] formatter: trimmed trailing spaces in notes.txt');
    // The read matched no PostToolUse matcher: no feedback.
    expect(completed(events, 'call_read').content).not.toContain('[hook]');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('new line\n');
  });

  it('a hook that crashes, or prints nonsense, denies and says which hook', async () => {
    const home = testdir();
    const workspace = testdir({});
    const crash = executable(workspace, 'crash.sh', '#!/bin/bash\necho boom >&2\nexit 3\n');
    const nonsense = executable(workspace, 'nonsense.sh', '#!/bin/bash\ncat >/dev/null\necho "sure, go ahead"\n');
    writeSettings(join(home, 'settings.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'read_file', hooks: [{ type: 'command', command: crash }] },
          { matcher: 'Read', hooks: [{ type: 'command', command: nonsense }] },
        ],
      },
    });
    const script = writeScript(home, [
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'x' } }] },
      { toolCalls: [{ id: 'call_glob', name: 'glob_files', arguments: { pattern: '*' } }] },
      { text: 'Done.' },
    ]);
    const run = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'x'], { home });
    const events = parseJsonLines(run.stdout);
    const read = completed(events, 'call_read');
    expect(read.code).toBe('hook_denied');
    expect(read.content).toContain(`${crash}`);
    expect(read.content).toContain('exit code 3: boom');
    const glob = completed(events, 'call_glob');
    expect(glob.code).toBe('hook_denied');
    expect(glob.content).toContain(nonsense);
    expect(glob.content).toContain('not a JSON object');
  });
});

describe('turn hooks through clawsmith run --json', () => {
  it('a UserPromptSubmit hook blocks a prompt before the model sees it; a Stop hook sends the turn back once', async () => {
    const home = testdir();
    const workspace = testdir({});
    const guard = executable(
      workspace,
      'guard.sh',
      `#!/bin/bash\nif grep -q 'password'; then echo "prompts must not carry passwords" >&2; exit 2; fi\n`,
    );
    const testsFirst = executable(
      workspace,
      'tests-first.sh',
      `#!/bin/bash\nif grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"run the tests first"}'; fi\n`,
    );
    writeSettings(join(home, 'settings.json'), {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: guard }] }],
        Stop: [{ hooks: [{ type: 'command', command: testsFirst }] }],
      },
    });
    const script = writeScript(home, [{ text: 'done, I think' }, { text: 'tests pass' }]);
    const blocked = await runCli(
      ['run', '--json', '--script', script, '--workspace', workspace, 'my password is hunter2'],
      { home },
    );
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout).not.toContain('hunter2');
    const closed = parseJsonLines(blocked.stdout).find((event) => event.type === 'turn.completed');
    expect(closed).toMatchObject({
      status: 'failed',
      error: { code: 'prompt_blocked', message: 'A hook blocked the prompt: prompts must not carry passwords' },
    });
    const run = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'fix it'], { home });
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(events.filter((event) => event.type === 'request.started')).toHaveLength(2);
    expect(events.find((event) => event.type === 'turn.completed')).toMatchObject({ status: 'completed', steps: 2 });
  });
});
