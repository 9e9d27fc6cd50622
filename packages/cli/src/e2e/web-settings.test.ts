// `clawsmith web` honours each session's workspace settings like `clawsmith run`: the project's
// files under the same trust rule (untrusted: only deny and ask apply, said once), and hooks run
// in the session's workspace. Black box: the built command, its HTTP API, a scripted model.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { startWeb, stop } from './web-process.js';

type Web = Awaited<ReturnType<typeof startWeb>>;

async function api(web: Web, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${web.origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${web.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function pendingApproval(web: Web, sessionId: string): Promise<{ id: string; toolName: string }> {
  let approvals: { id: string; toolName: string }[] = [];
  await expect
    .poll(
      async () => {
        approvals = (await api(web, `/api/sessions/${sessionId}/approvals`)).approvals as typeof approvals;
        return approvals.length;
      },
      {
        timeout: 60_000,
      },
    )
    .toBe(1);
  return approvals[0]!;
}

async function turnEnded(web: Web, sessionId: string): Promise<void> {
  await expect
    .poll(async () => (await api(web, `/api/sessions/${sessionId}`)).status, { timeout: 60_000 })
    .not.toBe('running');
}

async function eventsOf(web: Web, sessionId: string): Promise<Record<string, unknown>[]> {
  return (await api(web, `/api/sessions/${sessionId}/events?limit=1000`)).events as Record<string, unknown>[];
}

const LOG = `#!/bin/bash\ncat >> hooks/log\necho >> hooks/log\n`;

describe('clawsmith web and the settings of each session workspace', () => {
  it('applies only deny and ask of an untrusted project file (said once), then its allow rules and hooks once trusted, in the session workspace', async () => {
    const home = testdir();
    const workspace = testdir({ 'secrets/key': 'hunter2\n', 'hooks/log.sh': LOG });
    chmodSync(join(workspace, 'hooks', 'log.sh'), 0o755);
    mkdirSync(join(workspace, '.clawsmith'));
    writeFileSync(
      join(workspace, '.clawsmith', 'settings.json'),
      JSON.stringify({
        permissions: { allow: ['Bash(echo:*)'], deny: ['Read(./secrets/**)'] },
        hooks: {
          // Relative commands: hooks run in the session's workspace, wherever the server was started.
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/log.sh' }] }],
          Notification: [{ hooks: [{ type: 'command', command: './hooks/log.sh' }] }],
          SessionStart: [{ hooks: [{ type: 'command', command: './hooks/log.sh' }] }],
        },
      }),
    );
    // The session is started in a terminal; the web server (started elsewhere) continues it.
    const created = await runCli(
      [
        'run',
        '--json',
        '--script',
        writeScript(home, [{ text: 'started' }], 'first.json'),
        '--workspace',
        workspace,
        'start',
      ],
      { home },
    );
    expect(created.code).toBe(0);
    const sessionId = parseJsonLines(created.stdout)[0]!.sessionId as string;
    const script = writeScript(home, [
      {
        toolCalls: [
          { id: 'e1', name: 'run_command', arguments: { command: 'echo untrusted' } },
          { id: 'r1', name: 'read_file', arguments: { path: 'secrets/key' } },
        ],
      },
      { text: 'turn one' },
      { text: 'turn two' },
      { toolCalls: [{ id: 'e2', name: 'run_command', arguments: { command: 'echo trusted' } }] },
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'a.txt', content: 'a\n' } }] },
      { text: 'turn three' },
    ]);
    const web = await startWeb(home, ['--script', script, '--port', '0']);

    // Untrusted: the allow rule does not apply (the echo asks), the deny rule does, no hook runs.
    await api(web, `/api/sessions/${sessionId}/turns`, { prompt: 'one' });
    const asked = await pendingApproval(web, sessionId);
    expect(asked.toolName).toBe('run_command');
    await api(web, `/api/sessions/${sessionId}/approvals/${asked.id}`, { answer: 'deny' });
    await turnEnded(web, sessionId);
    await api(web, `/api/sessions/${sessionId}/turns`, { prompt: 'two' });
    await turnEnded(web, sessionId);
    let events = await eventsOf(web, sessionId);
    const read = events.find((event) => event.type === 'tool.completed' && event.toolCallId === 'r1')!;
    expect(read.result).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(JSON.stringify(events)).not.toContain('hunter2');
    expect(existsSync(join(workspace, 'hooks', 'log'))).toBe(false);
    const file = join(workspace, '.clawsmith', 'settings.json');
    expect(web.output().stderr.split(`${file} is not trusted`)).toHaveLength(2);

    // Trusted: the allow rule runs the echo, and the hooks run in the session's workspace.
    expect((await runCli(['config', 'trust', '--workspace', workspace], { home })).code).toBe(0);
    await api(web, `/api/sessions/${sessionId}/turns`, { prompt: 'three' });
    const write = await pendingApproval(web, sessionId);
    expect(write.toolName).toBe('write_file');
    await api(web, `/api/sessions/${sessionId}/approvals/${write.id}`, { answer: 'allow' });
    await turnEnded(web, sessionId);
    events = await eventsOf(web, sessionId);
    const echo = events.find((event) => event.type === 'tool.completed' && event.toolCallId === 'e2')!;
    expect(echo.result).toMatchObject({ status: 'success' });
    expect(String(echo.output)).toContain('trusted');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('a\n');
    const log = readFileSync(join(workspace, 'hooks', 'log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log.map((line) => [line.hook_event_name, line.cwd])).toEqual([
      ['SessionStart', workspace],
      ['PreToolUse', workspace],
      ['Notification', workspace],
    ]);
    expect(log[0]).toMatchObject({ source: 'resume', session_id: sessionId });
    expect(log[2]).toMatchObject({ notification_type: 'permission_prompt' });

    // A settings file that cannot be used refuses the next turn, naming it; nothing runs.
    const local = join(workspace, '.clawsmith', 'settings.local.json');
    writeFileSync(local, '{"permissions": {"allow": "Bash(*)"}}');
    const refused = await fetch(`${web.origin}/api/sessions/${sessionId}/turns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'four' }),
    });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_settings');
    expect(body.error.message).toContain(`${local} is invalid at permissions.allow`);
    stop(web.child);
    expect(await web.exited).toBe(0);
  });
});
