import { describe, expect, it } from 'vitest';
import { call, createHarness, createProbeTool } from '../__fixtures__/core-harness.js';

const probes = (count: number, name = 'probe') =>
  Array.from({ length: count }, (_, index) => call(`p${index}`, name, { label: `${index}`, ms: 60 }));

describe('read-only parallel batches', () => {
  it('run together when every call is eligible, with results recorded in call order', async () => {
    const probe = createProbeTool();
    const harness = await createHarness({
      builtinTools: [probe.tool],
      responses: [{ toolCalls: probes(4) }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(probe.state.maxRunning).toBe(4);
    const completedIds = (await harness.eventsOf('tool.completed')).map((event) => event.toolCallId);
    expect(completedIds).toEqual(['p0', 'p1', 'p2', 'p3']);
    const messages = (await harness.core.listMessages(harness.session.id)).filter((message) => message.role === 'tool');
    expect(messages.map((message) => message.role === 'tool' && message.content)).toEqual([
      'probe 0 done',
      'probe 1 done',
      'probe 2 done',
      'probe 3 done',
    ]);
  });

  it.each([
    [
      'one call is not concurrency-safe',
      () => createProbeTool('unsafe', { concurrencySafe: false }),
      { label: 'u', ms: 60 },
    ],
    ['one call writes', () => createProbeTool('writer', { risk: 'workspace-write' }), { label: 'w', ms: 60 }],
    ['one call fails its schema', () => createProbeTool('probe2'), { label: 7 }],
  ])('run serially, whole, when %s', async (_case, makeOther, otherArgs) => {
    const probe = createProbeTool();
    const other = makeOther();
    const harness = await createHarness({
      builtinTools: [probe.tool, other.tool],
      permissionMode: 'full-auto',
      responses: [
        { toolCalls: [...probes(3), call('x', other.tool.name, otherArgs as Record<string, unknown>)] },
        { text: 'ok' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(probe.state.maxRunning).toBe(1);
    expect(probe.state.calls).toEqual(['0', '1', '2']);
  });

  it('runs serially when a call is a duplicate', async () => {
    const probe = createProbeTool();
    const harness = await createHarness({
      builtinTools: [probe.tool],
      responses: [{ toolCalls: [...probes(2), call('dup', 'probe', { label: '0', ms: 60 })] }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(probe.state.maxRunning).toBe(1);
    const duplicate = (await harness.eventsOf('tool.completed')).find((event) => event.toolCallId === 'dup');
    expect(duplicate?.result).toMatchObject({ code: 'duplicate_call' });
  });

  it('judges each call in order first when hooks are configured, then runs only the allowed ones together', async () => {
    const probe = createProbeTool();
    const seen: string[] = [];
    const harness = await createHarness({
      builtinTools: [probe.tool],
      hooks: [
        {
          name: 'no-two',
          decide: (input) => {
            seen.push(input.toolCallId);
            return input.toolCallId === 'p2'
              ? { decision: 'deny', reason: 'label 2 is off limits' }
              : { decision: 'allow' };
          },
        },
      ],
      responses: [{ toolCalls: probes(4) }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(seen).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(probe.state.maxRunning).toBe(3);
    expect(probe.state.calls.sort()).toEqual(['0', '1', '3']);
    const decisions = (await harness.eventsOf('tool.decision')).filter((event) => event.stage === 'hook');
    expect(decisions.map((event) => event.toolCallId)).toEqual(['p0', 'p1', 'p2', 'p3']);
    const results = (await harness.eventsOf('tool.completed')).map((event) => [
      event.toolCallId,
      (event.result as { status: string }).status,
    ]);
    expect(results).toEqual([
      ['p0', 'success'],
      ['p1', 'success'],
      ['p2', 'denied'],
      ['p3', 'success'],
    ]);
  });
});
