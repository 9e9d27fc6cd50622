import { describe, expect, it } from 'vitest';
import { call, createHarness, createProbeTool } from '../__fixtures__/core-harness.js';
import type { SessionEvent } from '../store/session-records.js';
import { isSessionEvent } from '@clawsmith/session-protocol';

const resultOf = (events: SessionEvent[], toolCallId: string) =>
  events.filter((event) => isSessionEvent(event, 'tool.completed')).find((event) => event.toolCallId === toolCallId)
    ?.result;

describe('duplicate_call', () => {
  it('lets a later step repeat a call: re-read after an edit, re-run a test after a fix', async () => {
    const harness = await createHarness({
      files: {
        'a.txt': 'alpha\n',
        'test.mjs':
          "import { readFileSync } from 'node:fs';\nprocess.exit(readFileSync('a.txt', 'utf8').includes('beta') ? 0 : 1);\n",
      },
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [call('r1', 'read_file', { path: 'a.txt' })] },
        { toolCalls: [call('t1', 'run_command', { command: 'node test.mjs' })] },
        { toolCalls: [call('e1', 'edit_file', { path: 'a.txt', oldText: 'alpha', newText: 'beta' })] },
        { toolCalls: [call('t2', 'run_command', { command: 'node test.mjs' })] },
        { toolCalls: [call('r2', 'read_file', { path: 'a.txt' })] },
        { text: 'Fixed.' },
      ],
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'fix it' });
    expect(result.status).toBe('completed');
    const events = await harness.events();
    for (const id of ['r1', 'e1', 't2', 'r2']) expect(resultOf(events, id)?.code).not.toBe('duplicate_call');
    const messages = await harness.core.listMessages(harness.session.id);
    const content = (id: string) => {
      const message = messages.find((candidate) => candidate.role === 'tool' && candidate.toolCallId === id);
      return message?.role === 'tool' ? message.content : '';
    };
    expect(content('r1')).toContain('alpha');
    expect(content('r2')).toContain('beta');
    expect(content('t1')).toContain('exit code 1');
    expect(content('t2')).toContain('exit code 0');
  });

  it('refuses the identical call twice in one assistant message, and runs the first', async () => {
    const probe = createProbeTool();
    const harness = await createHarness({
      builtinTools: [probe.tool],
      responses: [
        { toolCalls: [call('p1', 'probe', { label: 'x', ms: 1 }), call('p2', 'probe', { ms: 1, label: 'x' })] },
        { toolCalls: [call('p3', 'probe', { label: 'x', ms: 1 })] },
        { text: 'ok' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    const events = await harness.events();
    expect(resultOf(events, 'p1')).toMatchObject({ status: 'success' });
    expect(resultOf(events, 'p2')).toMatchObject({ status: 'error', code: 'duplicate_call' });
    expect(resultOf(events, 'p3')).toMatchObject({ status: 'success' });
    expect(probe.state.calls).toEqual(['x', 'x']);
  });

  it('refuses a tool call id already used in this turn, even with other arguments', async () => {
    const probe = createProbeTool();
    const harness = await createHarness({
      builtinTools: [probe.tool],
      responses: [
        { toolCalls: [call('same', 'probe', { label: 'a', ms: 1 })] },
        { toolCalls: [call('same', 'probe', { label: 'b', ms: 1 })] },
        { text: 'ok' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    const completed = (await harness.eventsOf('tool.completed')).map((event) => event.result as { code?: string });
    expect(completed.map((result) => result.code)).toEqual([undefined, 'duplicate_call']);
    expect(probe.state.calls).toEqual(['a']);
  });
});
