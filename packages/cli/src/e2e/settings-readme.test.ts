import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openClawsmithHome } from '@clawsmith/core';
import { SessionStore } from '@clawsmith/core/testing';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, runCli, writeScript } from './cli-harness.js';
import { startWeb, stop } from './web-process.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

function settingsExample(): string {
  const section = README.slice(README.indexOf('## Settings files'));
  const match = /```json\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('the README has no settings example');
  return match[1]!;
}

type Event = Record<string, unknown>;

const completed = (events: readonly Event[], id: string) =>
  events.find((event) => event.type === 'tool.completed' && event.toolCallId === id)!;

function agentLog(workspace: string): string[] {
  const file = join(workspace, '.agent-log');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

async function userMessages(home: string, sessionId: string): Promise<string[]> {
  const opened = await openClawsmithHome(home);
  try {
    const messages = await new SessionStore(opened.db).listMessages(sessionId);
    return messages.flatMap((message) => (message.role === 'user' ? [message.text] : []));
  } finally {
    await opened.close();
  }
}

/** Five files of about 10 KB: reading them passes the compaction threshold of a 16,000-token window. */
const NOTES = Object.fromEntries(
  Array.from({ length: 5 }, (_, index) => [`notes-${index}.txt`, `${`line ${index} `.repeat(1_500)}\n`]),
);

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
    const hooks = JSON.parse(settingsExample()).hooks as Record<
      string,
      { matcher?: string; hooks: { command: string }[] }[]
    >;
    const hook = (event: string) => {
      const group = hooks[event]![0]!;
      return ['hook', `${event}[${group.matcher ?? '*'}]: ${group.hooks[0]!.command}`];
    };
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
      hook('PreToolUse'),
      hook('PostToolUse'),
      hook('UserPromptSubmit'),
      hook('Stop'),
      hook('SubagentStop'),
      hook('SessionStart'),
      hook('SessionEnd'),
      hook('PreCompact'),
      hook('Notification'),
    ]);
    expect(entries.at(-1)).toEqual({ kind: 'deny', text: 'Bash(curl:*)', source: '--deny', applied: true });
  });

  it('runs every hook in it: a turn of clawsmith run --json shows each one at work', async () => {
    const home = testdir();
    const workspace = testdir({ ...NOTES, 'src/.keep': '' });
    writeFileSync(join(home, 'settings.json'), settingsExample());

    // UserPromptSubmit blocks a prompt that carries a password (after SessionStart ran for the new session).
    const blocked = await runCli(
      [
        'run',
        '--json',
        '--script',
        writeScript(home, [{ text: 'never' }], 'blocked.json'),
        '--workspace',
        workspace,
        'my password is hunter2',
      ],
      { home },
    );
    expect(blocked.code).not.toBe(0);
    expect(parseJsonLines(blocked.stdout).find((event) => event.type === 'turn.completed')).toMatchObject({
      error: { code: 'prompt_blocked', message: 'A hook blocked the prompt: Keep passwords out of prompts.' },
    });

    const script = join(home, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        responses: [
          { toolCalls: [{ id: 'd1', name: 'delegate_task', arguments: { prompt: 'Which files are in src?' } }] },
          { toolCalls: [{ id: 'p1', name: 'run_command', arguments: { command: 'git push --force origin main' } }] },
          {
            toolCalls: [
              {
                id: 'w1',
                name: 'write_file',
                arguments: { path: 'src/app.js', content: 'const answer = 42;   \nexport default answer;  \n' },
              },
            ],
          },
          ...Object.keys(NOTES).map((path, index) => ({
            toolCalls: [{ id: `r${index}`, name: 'read_file', arguments: { path } }],
          })),
          { text: 'Done.' },
          { text: 'Ran npm test: all passed.' },
        ],
        children: { d1: { responses: [{ text: 'src is empty.' }, { text: 'I listed src: it is empty.' }] } },
      }),
    );
    const run = await runCli(
      [
        'run',
        '--json',
        '--script',
        script,
        '--workspace',
        workspace,
        '--context-window',
        '16000',
        'Add the answer to src/app.js',
      ],
      { home },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const events = parseJsonLines(run.stdout);
    const sessionId = events[0]!.sessionId as string;
    // SubagentStop sent the subagent back once: its second answer is the result.
    expect(JSON.parse(String(completed(events, 'd1').output))).toMatchObject({ summary: 'I listed src: it is empty.' });
    // PreToolUse blocked the force-push with its stderr.
    expect(completed(events, 'p1')).toMatchObject({ result: { status: 'denied', code: 'hook_denied' } });
    expect(String(completed(events, 'p1').output)).toContain('Never force-push; push a new commit.');
    // PostToolUse trimmed the trailing spaces of the file the model wrote.
    expect(readFileSync(join(workspace, 'src', 'app.js'), 'utf8')).toBe('const answer = 42;\nexport default answer;\n');
    // PreCompact ran before each automatic compaction.
    const compactions = events.filter((event) => event.type === 'context.compacted');
    expect(compactions.length).toBeGreaterThan(0);
    // SessionStart's context reached the first prompt; Stop sent the turn back once.
    expect(events.at(-1)).toMatchObject({ type: 'turn.completed', status: 'completed' });
    expect(await userMessages(home, sessionId)).toEqual([
      'Add the answer to src/app.js\n\n[hook] Run npm test before you call a change done.',
      '[hook] Say which tests you ran.',
    ]);
    const log = agentLog(workspace).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log.filter((line) => line.session_id === sessionId)).toEqual([
      ...compactions.map(() => ({ trigger: 'auto', session_id: sessionId })),
      { reason: 'other', session_id: sessionId },
    ]);
  });

  it('runs its Notification hook while clawsmith web waits for an approval', async () => {
    const home = testdir();
    const workspace = testdir({});
    writeFileSync(join(home, 'settings.json'), settingsExample());
    // Stop sends each turn back once: every turn is scripted with two answers.
    const created = await runCli(
      [
        'run',
        '--json',
        '--script',
        writeScript(home, [{ text: 'a' }, { text: 'b' }], 'first.json'),
        '--workspace',
        workspace,
        'start',
      ],
      { home },
    );
    expect(created.code).toBe(0);
    const sessionId = parseJsonLines(created.stdout)[0]!.sessionId as string;
    const script = writeScript(home, [
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'notes.txt', content: 'x\n' } }] },
      { text: 'c' },
      { text: 'd' },
    ]);
    const web = await startWeb(home, ['--script', script]);
    const headers = { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' };
    const started = await fetch(`${web.origin}/api/sessions/${sessionId}/turns`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'write notes' }),
    });
    expect(started.status).toBe(202);
    // notes.txt is outside Edit(src/**): the write asks, and the Notification hook says so.
    await expect
      .poll(() => agentLog(workspace).filter((line) => !line.startsWith('{')), { timeout: 60_000 })
      .toEqual([expect.stringContaining('clawsmith needs your permission to use write_file')]);
    const { approvals } = (await (
      await fetch(`${web.origin}/api/sessions/${sessionId}/approvals`, { headers })
    ).json()) as {
      approvals: { id: string }[];
    };
    await fetch(`${web.origin}/api/sessions/${sessionId}/approvals/${approvals[0]!.id}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ answer: 'deny' }),
    });
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${web.origin}/api/sessions/${sessionId}`, { headers })).json()) as { status: string })
            .status,
        {
          timeout: 60_000,
        },
      )
      .not.toBe('running');
    stop(web.child);
    expect(await web.exited).toBe(0);
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
  });
});
