import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { call, createHarness, type HarnessOptions } from '../__fixtures__/core-harness.js';
import type { TurnHooks } from '../turn-hooks.js';
import { effectiveSettings } from './effective-settings.js';

type Hooks = Record<string, { matcher?: string; scripts: string[] }[]>;

/**
 * A harness whose turn hooks are those of a user settings file (every event but PreToolUse and
 * PostToolUse), with hook scripts in the workspace (hooks run in the command sandbox, which sees it).
 */
async function harnessWithHooks(
  scripts: Record<string, string>,
  hooks: Hooks,
  options: Omit<HarnessOptions, 'files' | 'turnHooks'>,
) {
  let turnHooks: TurnHooks = {};
  const notices: string[] = [];
  const harness = await createHarness({
    ...options,
    files: scripts,
    onHookNotice: (notice) => notices.push(notice),
    // Settings are read once the workspace (where the scripts are) exists.
    turnHooks: {
      promptSubmitted: (input) => turnHooks.promptSubmitted?.(input) ?? Promise.resolve({}),
      stopping: (input) => turnHooks.stopping?.(input) ?? Promise.resolve({}),
      subagentStopping: (input) => turnHooks.subagentStopping?.(input) ?? Promise.resolve({}),
      sessionStarted: (input) => turnHooks.sessionStarted?.(input) ?? Promise.resolve({}),
      sessionEnded: (input) => turnHooks.sessionEnded?.(input) ?? Promise.resolve({}),
      compacting: (input) => turnHooks.compacting?.(input) ?? Promise.resolve({}),
      notified: (input) => turnHooks.notified?.(input) ?? Promise.resolve({}),
    },
  });
  for (const name of Object.keys(scripts)) chmodSync(join(harness.workspace, name), 0o755);
  const home = testdir({});
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      hooks: Object.fromEntries(
        Object.entries(hooks).map(([event, groups]) => [
          event,
          groups.map((group) => ({
            ...(group.matcher ? { matcher: group.matcher } : {}),
            hooks: group.scripts.map((name) => ({
              type: 'command',
              command: join(harness.workspace, name),
              timeout: 30,
            })),
          })),
        ]),
      ),
    }),
  );
  turnHooks = effectiveSettings({ homeDir: home, workspaceRoot: harness.workspace }).turnHooks;
  return { ...harness, notices, log: () => readFileSync(join(harness.workspace, 'hook.log'), 'utf8') };
}

/** A hook that appends its stdin to hook.log and prints `stdout`. */
const logging = (stdout = '', exit = 0) =>
  `#!/bin/bash\ncat >> hook.log\necho >> hook.log\nprintf '%s' '${stdout}'\nexit ${exit}\n`;

describe('SessionStart and SessionEnd hooks from settings files', () => {
  it('SessionStart runs once before the first turn (startup) and its context reaches the first prompt; SessionEnd runs at close', async () => {
    const harness = await harnessWithHooks(
      {
        'start.sh': logging(
          '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main is frozen"}}',
        ),
        'end.sh': logging(),
      },
      { SessionStart: [{ matcher: 'startup', scripts: ['start.sh'] }], SessionEnd: [{ scripts: ['end.sh'] }] },
      { responses: [{ text: 'one' }, { text: 'two' }] },
    );
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'first' });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'second' });
    const messages = await harness.core.listMessages(harness.session.id);
    expect(messages.filter((message) => message.role === 'user').map((message) => message.text)).toEqual([
      'first\n\n[hook] branch main is frozen',
      'second',
    ]);
    let lines = harness
      .log()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      { session_id: harness.session.id, cwd: harness.workspace, hook_event_name: 'SessionStart', source: 'startup' },
    ]);
    await harness.core.close();
    lines = harness
      .log()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toEqual({
      session_id: harness.session.id,
      cwd: harness.workspace,
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });
    expect(harness.notices).toEqual([]);
  });

  it('a session with turns starts as resume: a startup-only matcher skips it, plain stdout is context', async () => {
    const first = await harnessWithHooks({}, {}, { responses: [{ text: 'one' }] });
    await first.core.runTurn({ sessionId: first.session.id, prompt: 'first' });
    const second = await harnessWithHooks(
      { 'resume.sh': logging('resumed: read NOTES.md first'), 'startup.sh': logging('never') },
      {
        SessionStart: [
          { matcher: 'resume', scripts: ['resume.sh'] },
          { matcher: 'startup', scripts: ['startup.sh'] },
        ],
      },
      { responses: [{ text: 'two' }], sharedHome: first.home },
    );
    // A second core (another process) continues the first one's session.
    await second.core.openSession(first.session.id);
    await second.core.runTurn({ sessionId: first.session.id, prompt: 'again' });
    const prompts = (await second.core.listMessages(first.session.id)).filter((message) => message.role === 'user');
    expect(prompts.at(-1)?.text).toBe('again\n\n[hook] resumed: read NOTES.md first');
    expect(JSON.parse(second.log().trim())).toMatchObject({ source: 'resume' });
  });

  it('a SessionStart hook that crashes fails the turn before the model is asked, naming the hook; exit 2 is only said', async () => {
    const harness = await harnessWithHooks(
      { 'crash.sh': '#!/bin/bash\necho boom >&2\nexit 5\n' },
      { SessionStart: [{ scripts: ['crash.sh'] }] },
      { responses: [{ text: 'never sent' }] },
    );
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'hi' });
    expect(result).toMatchObject({ status: 'failed', steps: 0, error: { code: 'hook_failed' } });
    expect(result.error?.message).toContain(`SessionStart hook "${join(harness.workspace, 'crash.sh')}"`);
    expect(result.error?.message).toContain('exit code 5: boom');
    expect(await harness.eventsOf('request.started')).toEqual([]);

    const said = await harnessWithHooks(
      { 'two.sh': '#!/bin/bash\necho "the cache is cold" >&2\nexit 2\n' },
      { SessionStart: [{ scripts: ['two.sh'] }] },
      { responses: [{ text: 'fine' }] },
    );
    expect((await said.core.runTurn({ sessionId: said.session.id, prompt: 'hi' })).status).toBe('completed');
    expect(said.notices).toEqual([expect.stringContaining('exited 2: the cache is cold')]);
  });

  it('a SessionEnd hook that fails is said to the person, never thrown', async () => {
    const harness = await harnessWithHooks(
      { 'end.sh': '#!/bin/bash\ncat >/dev/null\necho "cannot reach the tracker" >&2\nexit 1\n' },
      { SessionEnd: [{ scripts: ['end.sh'] }] },
      { responses: [{ text: 'ok' }] },
    );
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'hi' });
    await harness.core.close();
    expect(harness.notices).toEqual([expect.stringContaining('exit code 1: cannot reach the tracker')]);
  });
});

describe('Notification hooks from settings files', () => {
  it('runs while a person is asked for an approval, with the tool and what it would do', async () => {
    const harness = await harnessWithHooks(
      { 'notify.sh': logging() },
      { Notification: [{ matcher: 'permission_prompt', scripts: ['notify.sh'] }] },
      {
        responses: [{ toolCalls: [call('w1', 'write_file', { path: 'a.txt', content: 'a' })] }, { text: 'done' }],
        approvalHandler: async () => 'allow',
      },
    );
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'write' });
    expect(result.status).toBe('completed');
    expect(JSON.parse(harness.log().trim())).toMatchObject({
      session_id: harness.session.id,
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: expect.stringContaining('clawsmith needs your permission to use write_file'),
    });
    expect(existsSync(join(harness.workspace, 'a.txt'))).toBe(true);
  });
});

describe('PreCompact hooks from settings files', () => {
  const reads = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      toolCalls: [call(`r${index}`, 'read_file', { path: `big-${index}.txt` })],
    }));
  const files = Object.fromEntries(
    Array.from({ length: 3 }, (_, index) => [`big-${index}.txt`, `${'word '.repeat(3_000)}\n`]),
  );

  it('a manual compaction asks the hook (trigger manual); a block keeps the view and says why', async () => {
    const harness = await harnessWithHooks(
      { ...files, 'keep.sh': logging('{"decision":"block","reason":"the auditors need the full log"}') },
      { PreCompact: [{ matcher: 'manual', scripts: ['keep.sh'] }] },
      { responses: [...reads(3), { text: 'read them' }], permissionMode: 'full-auto' },
    );
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'read' });
    const result = await harness.core.compact(harness.session.id);
    expect(result).toMatchObject({ compacted: false, blocked: 'the auditors need the full log' });
    expect(await harness.eventsOf('context.compacted')).toEqual([]);
    expect(JSON.parse(harness.log().trim())).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'manual' });
    expect(harness.notices).toEqual(['compaction was blocked by a PreCompact hook: the auditors need the full log']);
  });

  it('an allowing hook lets the compaction run; one that crashes blocks it (fail closed), naming the hook', async () => {
    const allowed = await harnessWithHooks(
      { ...files, 'ok.sh': logging() },
      { PreCompact: [{ scripts: ['ok.sh'] }] },
      { responses: [...reads(3), { text: 'read them' }], permissionMode: 'full-auto' },
    );
    await allowed.core.runTurn({ sessionId: allowed.session.id, prompt: 'read' });
    expect(await allowed.core.compact(allowed.session.id)).toMatchObject({ compacted: true });
    expect(await allowed.eventsOf('context.compacted')).toHaveLength(1);

    const crashed = await harnessWithHooks(
      { ...files, 'crash.sh': '#!/bin/bash\nexit 9\n' },
      { PreCompact: [{ scripts: ['crash.sh'] }] },
      { responses: [...reads(3), { text: 'read them' }], permissionMode: 'full-auto' },
    );
    await crashed.core.runTurn({ sessionId: crashed.session.id, prompt: 'read' });
    const result = await crashed.core.compact(crashed.session.id);
    expect(result.compacted).toBe(false);
    expect(result.blocked).toContain(`PreCompact hook "${join(crashed.workspace, 'crash.sh')}"`);
    expect(result.blocked).toContain('exit code 9');
    expect(await crashed.eventsOf('context.compacted')).toEqual([]);
  });
});

describe('SubagentStop hooks from settings files', () => {
  it("sends a subagent's turn back once with the reason; the parent's Stop hooks do not run for it", async () => {
    const harness = await harnessWithHooks(
      {
        'sub.sh': `#!/bin/bash\ninput=$(cat)\nprintf '%s\\n' "$input" >> hook.log\nif printf '%s' "$input" | grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"cite the file you read"}'; fi\n`,
        'stop.sh': logging(),
      },
      { SubagentStop: [{ scripts: ['sub.sh'] }], Stop: [{ scripts: ['stop.sh'] }] },
      {
        responses: [{ toolCalls: [call('d1', 'delegate_task', { prompt: 'look' })] }, { text: 'parent done' }],
        children: { d1: [{ text: 'found it' }, { text: 'found it in notes.md' }] },
      },
    );
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'delegate' });
    expect(result.status).toBe('completed');
    const lines = harness
      .log()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.hook_event_name, line.stop_hook_active])).toEqual([
      ['SubagentStop', false],
      ['SubagentStop', true],
      ['Stop', false],
    ]);
    const child = lines[0]!;
    expect(child.agent_id).toBe(child.session_id);
    expect(child.session_id).not.toBe(harness.session.id);
    expect(child.last_assistant_message).toBe('found it');
    const delegated = (await harness.eventsOf('tool.completed')).find((event) => event.toolCallId === 'd1');
    expect(String(delegated?.output)).toContain('found it in notes.md');
  });
});
