import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../__fixtures__/core-harness.js';
import type { TurnHooks } from '../turn-hooks.js';
import { effectiveSettings } from './effective-settings.js';

/**
 * A harness whose turn hooks are the UserPromptSubmit and Stop handlers of a user settings file,
 * with hook scripts in the workspace (hooks run in the command sandbox, which sees it).
 */
async function harnessWithHooks(
  scripts: Record<string, string>,
  hooks: Record<string, string[]>,
  responses: { text: string }[],
) {
  let turnHooks: TurnHooks = {};
  const harness = await createHarness({
    files: scripts,
    responses,
    turnHooks: {
      promptSubmitted: (input) => turnHooks.promptSubmitted?.(input) ?? Promise.resolve({}),
      stopping: (input) => turnHooks.stopping?.(input) ?? Promise.resolve({}),
    },
  });
  for (const name of Object.keys(scripts)) chmodSync(join(harness.workspace, name), 0o755);
  const home = testdir({});
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      hooks: Object.fromEntries(
        Object.entries(hooks).map(([event, names]) => [
          event,
          [{ hooks: names.map((name) => ({ type: 'command', command: join(harness.workspace, name), timeout: 30 })) }],
        ]),
      ),
    }),
  );
  turnHooks = effectiveSettings({ homeDir: home, workspaceRoot: harness.workspace }).turnHooks;
  return harness;
}

const GUARD = `#!/bin/bash
input=$(cat)
if printf '%s' "$input" | grep -q 'password'; then echo "prompts must not carry passwords" >&2; exit 2; fi
echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"the team uses pnpm"}}'
`;

const TESTS_FIRST = `#!/bin/bash
input=$(cat)
if printf '%s' "$input" | grep -q '"stop_hook_active":false'; then
  echo '{"decision":"block","reason":"run the tests before you stop"}'
fi
`;

describe('UserPromptSubmit and Stop hooks from settings files', () => {
  it('a prompt hook blocks a prompt before the model sees it, and the prompt is not kept', async () => {
    const harness = await harnessWithHooks({ 'guard.sh': GUARD }, { UserPromptSubmit: ['guard.sh'] }, [
      { text: 'never sent' },
    ]);
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'my password is hunter2' });
    expect(result).toMatchObject({
      status: 'failed',
      steps: 0,
      error: { code: 'prompt_blocked', message: 'A hook blocked the prompt: prompts must not carry passwords' },
    });
    expect(await harness.eventsOf('request.started')).toEqual([]);
    expect(JSON.stringify(await harness.events())).not.toContain('hunter2');
    expect(await harness.core.listMessages(harness.session.id)).toEqual([]);
  });

  it("a prompt hook's context is added to the prompt the model reads", async () => {
    const harness = await harnessWithHooks({ 'guard.sh': GUARD }, { UserPromptSubmit: ['guard.sh'] }, [{ text: 'ok' }]);
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'add a dependency' });
    expect(result.status).toBe('completed');
    const [prompt] = await harness.core.listMessages(harness.session.id);
    expect(prompt).toMatchObject({ role: 'user', text: 'add a dependency\n\n[hook] the team uses pnpm' });
  });

  it('a stop hook sends the turn back to the model once with its reason', async () => {
    const harness = await harnessWithHooks({ 'tests-first.sh': TESTS_FIRST }, { Stop: ['tests-first.sh'] }, [
      { text: 'done, I think' },
      { text: 'tests pass, done' },
    ]);
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'fix it' });
    expect(result).toMatchObject({ status: 'completed', steps: 2, text: 'tests pass, done' });
    const messages = await harness.core.listMessages(harness.session.id);
    expect(messages.map((message) => [message.role, 'text' in message ? message.text : ''])).toEqual([
      ['user', 'fix it'],
      ['assistant', 'done, I think'],
      ['user', '[hook] run the tests before you stop'],
      ['assistant', 'tests pass, done'],
    ]);
  });

  it('a stop hook that always objects is bounded: three continuations, then the turn ends', async () => {
    const harness = await harnessWithHooks(
      { 'never.sh': '#!/bin/bash\ncat >/dev/null\necho "keep going" >&2\nexit 2\n' },
      { Stop: ['never.sh'] },
      [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }, { text: 'never reached' }],
    );
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(result).toMatchObject({ status: 'completed', steps: 4, text: 'd' });
  });

  it('a crashing hook blocks the prompt, or ends the turn failed, and says which hook', async () => {
    const crash = '#!/bin/bash\ncat >/dev/null\necho boom >&2\nexit 7\n';
    const prompt = await harnessWithHooks({ 'crash.sh': crash }, { UserPromptSubmit: ['crash.sh'] }, [{ text: 'x' }]);
    const blocked = await prompt.core.runTurn({ sessionId: prompt.session.id, prompt: 'hi' });
    expect(blocked.error?.code).toBe('prompt_blocked');
    expect(blocked.error?.message).toContain(`UserPromptSubmit hook "${join(prompt.workspace, 'crash.sh')}"`);
    expect(blocked.error?.message).toContain('exit code 7: boom');
    const stop = await harnessWithHooks({ 'crash.sh': crash }, { Stop: ['crash.sh'] }, [{ text: 'x' }]);
    const failed = await stop.core.runTurn({ sessionId: stop.session.id, prompt: 'hi' });
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'hook_failed' } });
    expect(failed.error?.message).toContain(`Stop hook "${join(stop.workspace, 'crash.sh')}"`);
  });
});
