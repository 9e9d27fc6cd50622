import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { startStreamingModelServer } from '@clawsmith/test-utils/model-servers';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJsonLines, runCli } from './cli-harness.js';

/** A hook in the workspace's `hooks/` folder (hooks run in the command sandbox, which sees the workspace). */
function executable(workspace: string, name: string, text: string): string {
  const file = join(workspace, 'hooks', name);
  mkdirSync(join(workspace, 'hooks'), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

/** A hook that appends its stdin, one line, to hooks/log, prints `stdout` and exits with `exit`. */
const logging = (stdout = '', exit = 0) =>
  `#!/bin/bash\ncat >> "$(dirname "$0")/log"\necho >> "$(dirname "$0")/log"\nprintf '%s' '${stdout}'\nexit ${exit}\n`;

function logOf(workspace: string): Record<string, unknown>[] {
  return readFileSync(join(workspace, 'hooks', 'log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function writeSettings(home: string, hooks: Record<string, unknown>): void {
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks }, null, 2));
}

const command = (file: string) => [{ type: 'command', command: file, timeout: 30 }];

describe('session hooks through clawsmith run --json', () => {
  it('SessionStart adds context the model sees (startup, then resume); SessionEnd runs when the run ends', async () => {
    const server = await startStreamingModelServer('openai', [{ text: 'first answer' }]);
    onTestFinished(() => server.close());
    const home = testdir();
    const workspace = testdir({});
    const start = executable(
      workspace,
      'start.sh',
      logging(
        '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"the main branch is frozen"}}',
      ),
    );
    const end = executable(workspace, 'end.sh', logging());
    writeSettings(home, {
      SessionStart: [{ matcher: 'startup|resume', hooks: command(start) }],
      SessionEnd: [{ hooks: command(end) }],
    });
    const environment = { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test' };
    const model = ['--provider', 'openai', '--model', 'local-model', '--workspace', workspace];
    const first = await runCli(['run', '--json', ...model, 'Fix the bug'], { home, env: environment });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const sessionId = parseJsonLines(first.stdout)[0]!.sessionId as string;
    expect(JSON.stringify(server.requests[0])).toContain('Fix the bug\\n\\n[hook] the main branch is frozen');
    expect(logOf(workspace)).toEqual([
      { session_id: sessionId, cwd: workspace, hook_event_name: 'SessionStart', source: 'startup' },
      { session_id: sessionId, cwd: workspace, hook_event_name: 'SessionEnd', reason: 'other' },
    ]);

    const again = await runCli(['run', '--json', ...model, '--session', 'last', 'And the test'], {
      home,
      env: environment,
      cwd: workspace,
    });
    expect(again.code).toBe(0);
    expect(logOf(workspace).slice(2)).toEqual([
      { session_id: sessionId, cwd: workspace, hook_event_name: 'SessionStart', source: 'resume' },
      { session_id: sessionId, cwd: workspace, hook_event_name: 'SessionEnd', reason: 'other' },
    ]);
    expect(JSON.stringify(server.requests.at(-1))).toContain('And the test\\n\\n[hook] the main branch is frozen');
  });

  it('a SessionStart hook that crashes fails the run before the model is asked, naming the hook', async () => {
    const home = testdir();
    const workspace = testdir({});
    const crash = executable(workspace, 'crash.sh', '#!/bin/bash\necho "vault unreachable" >&2\nexit 4\n');
    writeSettings(home, { SessionStart: [{ hooks: command(crash) }] });
    const script = join(home, 'script.json');
    writeFileSync(script, JSON.stringify({ responses: [{ text: 'never' }] }));
    const run = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'hi'], { home });
    expect(run.code).not.toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(events.filter((event) => event.type === 'request.started')).toEqual([]);
    const closed = events.find((event) => event.type === 'turn.completed') as {
      error: { code: string; message: string };
    };
    expect(closed.error.code).toBe('hook_failed');
    expect(closed.error.message).toContain(`SessionStart hook "${crash}"`);
    expect(closed.error.message).toContain('exit code 4: vault unreachable');
  });

  it("SubagentStop sends a subagent's turn back once; the run completes with the subagent's second answer", async () => {
    const home = testdir();
    const workspace = testdir({ 'notes.md': 'the answer is 42\n' });
    const check = executable(
      workspace,
      'cite.sh',
      `#!/bin/bash\ninput=$(cat)\nprintf '%s\\n' "$input" >> "$(dirname "$0")/log"\nif printf '%s' "$input" | grep -q '"stop_hook_active":false'; then echo "name the file you read" >&2; exit 2; fi\n`,
    );
    writeSettings(home, { SubagentStop: [{ hooks: command(check) }] });
    const script = join(home, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        responses: [
          { toolCalls: [{ id: 'd1', name: 'delegate_task', arguments: { prompt: 'find the answer' } }] },
          { text: 'The subagent found it.' },
        ],
        children: { d1: { responses: [{ text: '42' }, { text: 'notes.md says 42' }] } },
      }),
    );
    const run = await runCli(['run', '--json', '--script', script, '--workspace', workspace, 'ask a helper'], {
      home,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const delegated = parseJsonLines(run.stdout).find(
      (event) => event.type === 'tool.completed' && event.toolName === 'delegate_task',
    )!;
    const answer = JSON.parse(String(delegated.output)) as { summary: string; childSessionId: string };
    expect(answer.summary).toBe('notes.md says 42');
    expect(logOf(workspace).map((line) => [line.hook_event_name, line.agent_id, line.stop_hook_active])).toEqual([
      ['SubagentStop', answer.childSessionId, false],
      ['SubagentStop', answer.childSessionId, true],
    ]);
  });
});

describe('PreCompact hooks through clawsmith run --json', () => {
  const files = Object.fromEntries(
    Array.from({ length: 5 }, (_, index) => [`notes-${index}.txt`, `${`line ${index} `.repeat(1_500)}\n`]),
  );
  const script = (home: string) => {
    const file = join(home, 'script.json');
    writeFileSync(
      file,
      JSON.stringify({
        responses: [
          ...Object.keys(files).map((path, index) => ({
            toolCalls: [{ id: `r${index}`, name: 'read_file', arguments: { path } }],
          })),
          { text: 'Read them all.' },
        ],
      }),
    );
    return file;
  };
  const args = (home: string, workspace: string) => [
    'run',
    '--json',
    '--script',
    script(home),
    '--workspace',
    workspace,
    '--context-window',
    '16000',
    'Read every notes file',
  ];

  it('runs before an automatic compaction (trigger auto), which then goes ahead', async () => {
    const home = testdir();
    const workspace = testdir(files);
    writeSettings(home, {
      PreCompact: [{ matcher: 'auto', hooks: command(executable(workspace, 'save.sh', logging())) }],
    });
    const run = await runCli(args(home, workspace), { home });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const compactions = events.filter((event) => event.type === 'context.compacted');
    expect(compactions.length).toBeGreaterThan(0);
    const log = logOf(workspace);
    expect(log).toHaveLength(compactions.length);
    expect(log[0]).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' });
  });

  it('a hook that exits 2 keeps the view uncompacted, and the command says why', async () => {
    const home = testdir();
    const workspace = testdir(files);
    const keep = executable(
      workspace,
      'keep.sh',
      '#!/bin/bash\ncat >/dev/null\necho "keep every read for the audit" >&2\nexit 2\n',
    );
    writeSettings(home, { PreCompact: [{ hooks: command(keep) }] });
    const run = await runCli(args(home, workspace), { home });
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    expect(events.filter((event) => event.type === 'context.compacted')).toEqual([]);
    expect(run.stderr).toContain(
      'clawsmith: compaction was blocked by a PreCompact hook: keep every read for the audit',
    );
  });
});
