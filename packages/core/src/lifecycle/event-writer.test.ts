import { describe, expect, it } from 'vitest';
import { call, createHarness, createProbeTool } from '../__fixtures__/core-harness.js';
import type { SessionEvent } from '../store/session-records.js';

/** The events of the tool calls, as `type callId[ stage:action]`, in log order. */
function callEvents(events: readonly SessionEvent[]): string[] {
  return events
    .filter((event) => event.type.startsWith('tool.') || event.type.startsWith('approval.'))
    .map((event) =>
      [
        event.type,
        'toolCallId' in event ? event.toolCallId : undefined,
        event.type === 'tool.decision' ? `${event.stage}:${event.action}` : undefined,
      ]
        .filter(Boolean)
        .join(' '),
    );
}

describe('CallEventWriter', () => {
  it('writes an earlier completion before a person is asked, and runs nothing before its tool.started', async () => {
    const seenWhileAsking: string[][] = [];
    const ref: { harness?: Awaited<ReturnType<typeof createHarness>> } = {};
    const harness = await createHarness({
      files: { 'a.txt': 'alpha' },
      approvalHandler: async (request) => {
        seenWhileAsking.push(callEvents(await ref.harness!.core.listEvents(request.sessionId)));
        return 'allow';
      },
      responses: [
        {
          toolCalls: [
            call('r', 'read_file', { path: 'a.txt' }),
            call('w', 'write_file', { path: 'b.txt', content: 'beta' }),
          ],
        },
        { text: 'ok' },
      ],
    });
    ref.harness = harness;
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    const order = [
      'tool.decision r permission:allow',
      'tool.started r',
      'tool.completed r',
      'tool.decision w permission:ask',
      'approval.requested w',
    ];
    expect(seenWhileAsking).toEqual([order]);
    expect(callEvents(await harness.events())).toEqual([
      ...order,
      'approval.resolved w',
      'tool.decision w approval:allow',
      'tool.started w',
      'tool.completed w',
    ]);
  });

  it('keeps a refusal and the next call in call order, and writes each completion before a hook runs', async () => {
    const seenByHook: string[][] = [];
    const ref: { harness?: Awaited<ReturnType<typeof createHarness>> } = {};
    const harness = await createHarness({
      files: { 'a.txt': 'alpha' },
      permissionMode: 'accept-edits',
      hooks: [
        {
          name: 'watch',
          decide: async (input) => {
            seenByHook.push(callEvents(await ref.harness!.core.listEvents(input.sessionId)));
            return input.toolCallId === 'w' ? { decision: 'deny', reason: 'no writes' } : { decision: 'allow' };
          },
        },
      ],
      responses: [
        {
          toolCalls: [
            call('w', 'write_file', { path: 'b.txt', content: 'beta' }),
            call('r', 'read_file', { path: 'a.txt' }),
          ],
        },
        { text: 'ok' },
      ],
    });
    ref.harness = harness;
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(seenByHook).toEqual([[], ['tool.decision w hook:deny', 'tool.completed w']]);
    expect(callEvents(await harness.events())).toEqual([
      'tool.decision w hook:deny',
      'tool.completed w',
      'tool.decision r hook:allow',
      'tool.decision r permission:allow',
      'tool.started r',
      'tool.completed r',
    ]);
  });

  it('writes a parallel batch in call order: each call judged in turn, all started before any runs', async () => {
    const probe = createProbeTool();
    const secret = createProbeTool('probe_secret');
    const harness = await createHarness({
      builtinTools: [probe.tool, secret.tool],
      rules: [{ action: 'ask', tool: 'probe_secret', reason: 'a person looks first' }],
      approvalHandler: async () => 'allow',
      responses: [
        {
          toolCalls: [
            call('p0', 'probe', { label: '0' }),
            call('p1', 'probe_secret', { label: '1' }),
            call('p2', 'probe', { label: '2' }),
          ],
        },
        { text: 'ok' },
      ],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(probe.state.maxRunning).toBe(2); // p0 and p2 ran together: the batch stayed parallel
    expect(callEvents(await harness.events())).toEqual([
      'tool.decision p0 permission:allow',
      'tool.started p0',
      'tool.decision p1 permission:ask',
      'approval.requested p1',
      'approval.resolved p1',
      'tool.decision p1 approval:allow',
      'tool.started p1',
      'tool.decision p2 permission:allow',
      'tool.started p2',
      'tool.completed p0',
      'tool.completed p1',
      'tool.completed p2',
    ]);
  });
});
