import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Provider } from '@clawsmith/providers';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { call, createHarness, createProbeTool, type Harness } from '../__fixtures__/core-harness.js';
import { createBuiltinTools } from '../builtin-tools.js';

const probe = createProbeTool('probe');

/** A child that calls the probe for `ms`, then answers. */
const slowChild = (label: string, ms: number) => [
  { toolCalls: [call(`${label}-p`, 'probe', { label, ms })] },
  { text: `child ${label} found it in src/${label}.ts` },
];

async function childIntervals(harness: Harness, parentSessionId: string) {
  const children = await harness.core.listDelegations(parentSessionId);
  return Promise.all(
    children.map(async (child) => {
      const events = await harness.core.listEvents(child.childSessionId);
      const started = events.find((event) => event.type === 'turn.started')!;
      const completed = events.find((event) => event.type === 'turn.completed')!;
      return {
        id: child.parentToolCallId,
        start: Date.parse(started.createdAt),
        end: Date.parse(completed.createdAt),
      };
    }),
  );
}

function maxOverlap(intervals: readonly { start: number; end: number }[]): number {
  const points = intervals.flatMap((interval) => [
    { at: interval.start, delta: 1 },
    // An end at the same millisecond as a start frees its slot first.
    { at: interval.end, delta: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let running = 0;
  let max = 0;
  for (const point of points) max = Math.max(max, (running += point.delta));
  return max;
}

describe('delegate_task', () => {
  it('four in one message run together, a fifth waits for a slot; each returns a bounded structured answer', async () => {
    const ids = ['d1', 'd2', 'd3', 'd4', 'd5'];
    const harness = await createHarness({
      builtinTools: [...createBuiltinTools(), probe.tool],
      responses: [
        { toolCalls: ids.map((id) => call(id, 'delegate_task', { prompt: `investigate ${id}` })) },
        { text: 'all five answered' },
      ],
      children: Object.fromEntries(ids.map((id) => [id, slowChild(id, 600)])),
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'split the work' });
    expect(result.status).toBe('completed');

    const intervals = await childIntervals(harness, harness.session.id);
    expect(intervals).toHaveLength(5);
    expect(maxOverlap(intervals)).toBe(4);
    const byStart = [...intervals].sort((a, b) => a.start - b.start);
    // The last to start began only after one of the first four had finished.
    expect(byStart[4]!.start).toBeGreaterThanOrEqual(Math.min(...byStart.slice(0, 4).map((child) => child.end)));

    const completed = await harness.eventsOf('tool.completed');
    expect(completed).toHaveLength(5);
    for (const event of completed) {
      expect(event.result).toMatchObject({ status: 'success' });
      const answer = JSON.parse(String(event.output)) as Record<string, unknown>;
      expect(answer).toMatchObject({ status: 'completed', summaryTruncated: false, steps: 2 });
      expect(answer.summary).toMatch(/^child d\d found it/);
      expect(typeof answer.childSessionId).toBe('string');
    }
    const delegations = await harness.core.listDelegations(harness.session.id);
    expect(delegations.map((child) => [child.kind, child.status, child.parentTurnId])).toEqual(
      ids.map(() => ['task', 'completed', result.turnId]),
    );
  });

  it("runs children read-only whatever the parent's mode: a child's write is denied, and the parent's hooks apply", async () => {
    const hooked: string[] = [];
    const harness = await createHarness({
      files: { 'secret.txt': 'top secret\n', 'open.txt': 'open\n' },
      permissionMode: 'full-auto',
      hooks: [
        {
          name: 'no-secrets',
          decide: (input) => {
            hooked.push(`${input.sessionId}:${input.toolName}`);
            return JSON.stringify(input.input).includes('secret')
              ? { decision: 'deny', reason: 'secrets stay secret' }
              : { decision: 'allow' };
          },
        },
      ],
      responses: [{ toolCalls: [call('d1', 'delegate_task', { prompt: 'tidy up' })] }, { text: 'ok' }],
      children: {
        d1: [
          {
            toolCalls: [
              call('c-w', 'write_file', { path: 'made.txt', content: 'by the child\n' }),
              call('c-r', 'read_file', { path: 'secret.txt' }),
              call('c-o', 'read_file', { path: 'open.txt' }),
            ],
          },
          { text: 'could not write' },
        ],
      },
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(existsSync(join(harness.workspace, 'made.txt'))).toBe(false);
    const [child] = await harness.core.listDelegations(harness.session.id);
    const childDone = (await harness.core.listEvents(child!.childSessionId)).filter(
      (event) => event.type === 'tool.completed',
    );
    const byCall = Object.fromEntries(childDone.map((event) => [event.toolCallId, event.result]));
    expect(byCall['c-w']).toMatchObject({ status: 'denied' });
    expect(byCall['c-r']).toMatchObject({ status: 'denied' });
    expect(byCall['c-o']).toMatchObject({ status: 'success' });
    expect(hooked).toContain(`${child!.childSessionId}:read_file`);
    const answer = JSON.parse(String((await harness.eventsOf('tool.completed'))[0]!.output)) as {
      filesConsulted: string[];
    };
    expect(answer.filesConsulted.sort()).toEqual(['made.txt', 'open.txt', 'secret.txt']);
  });

  it('a child that hits its step limit ends the call with subagent_step_limit', async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'a\n' },
      delegation: { maxSteps: 2 },
      responses: [{ toolCalls: [call('d1', 'delegate_task', { prompt: 'loop' })] }, { text: 'ok' }],
      children: {
        d1: [1, 2, 3].map((step) => ({ toolCalls: [call(`r${step}`, 'read_file', { path: 'a.txt' })] })),
      },
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    const [completed] = await harness.eventsOf('tool.completed');
    expect(completed!.result).toMatchObject({ status: 'error', code: 'subagent_step_limit' });
    expect(JSON.parse(String(completed!.output))).toMatchObject({ status: 'step_limit', steps: 2 });
    expect((await harness.core.listDelegations(harness.session.id))[0]!.status).toBe('step_limit');
  });

  it("a child's provider error is the call's result, with the provider's code", async () => {
    const failing: Provider = {
      name: 'failing',
      model: 'x',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new ClawsmithError('provider_rate_limited', 'Too many requests; retry later.');
      },
    };
    const harness = await createHarness({
      responses: [{ toolCalls: [call('d1', 'delegate_task', { prompt: 'x' })] }, { text: 'ok' }],
      children: {},
      delegation: { providerFor: () => failing },
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    const [completed] = await harness.eventsOf('tool.completed');
    expect(completed!.result).toMatchObject({ status: 'error', code: 'provider_rate_limited' });
    expect(JSON.parse(String(completed!.output))).toMatchObject({
      status: 'failed',
      error: { code: 'provider_rate_limited' },
    });
  });

  it("the parent's abort cancels its running children", async () => {
    const harness = await createHarness({
      builtinTools: [...createBuiltinTools(), probe.tool],
      responses: [
        { toolCalls: [call('d1', 'delegate_task', { prompt: 'a' }), call('d2', 'delegate_task', { prompt: 'b' })] },
        { text: 'never' },
      ],
      children: { d1: slowChild('d1', 5_000), d2: slowChild('d2', 5_000) },
    });
    const controller = new AbortController();
    const unsubscribe = harness.core.subscribe((event) => {
      if (event.type === 'tool.started' && event.toolName === 'probe') controller.abort();
    });
    const started = Date.now();
    const result = await harness.core.runTurn({
      sessionId: harness.session.id,
      prompt: 'go',
      signal: controller.signal,
    });
    unsubscribe();
    expect(result.status).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(4_500);
    const children = await harness.core.listDelegations(harness.session.id);
    expect(children.map((child) => child.status)).toEqual(['cancelled', 'cancelled']);
    for (const child of children) {
      const turns = await harness.core.listTurns(child.childSessionId);
      expect(turns.map((turn) => turn.status)).toEqual(['cancelled']);
    }
  });

  it('is only in the table with delegation on, and children never get the delegation tools', async () => {
    const without = await createHarness({ responses: [] });
    expect(without.core.toolNames).not.toContain('delegate_task');
    const harness = await createHarness({
      responses: [{ toolCalls: [call('d1', 'delegate_task', { prompt: 'nest' })] }, { text: 'ok' }],
      children: { d1: [{ toolCalls: [call('n1', 'delegate_task', { prompt: 'deeper' })] }, { text: 'no' }] },
    });
    expect(harness.core.toolNames).toEqual(
      expect.arrayContaining([
        'delegate_task',
        'delegate_background',
        'background_task_list',
        'background_task_cancel',
      ]),
    );
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    const [child] = await harness.core.listDelegations(harness.session.id);
    const nested = (await harness.core.listEvents(child!.childSessionId)).find(
      (event) => event.type === 'tool.completed',
    );
    expect(nested!.result).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(await harness.core.listDelegations(child!.childSessionId)).toEqual([]);
  });
});
