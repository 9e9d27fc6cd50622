import type { ModelMessage } from '@clawsmith/providers';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { call, createHarness, createProbeTool, type Harness } from '../__fixtures__/core-harness.js';
import { createBuiltinTools } from '../builtin-tools.js';

const probe = createProbeTool('probe');
// Deferred by default; these tests call them without search_tools.
const BACKGROUND_TOOLS = ['delegate_background', 'background_task_list', 'background_task_cancel'];

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const userTexts = async (harness: Harness) =>
  (await harness.core.listMessages(harness.session.id))
    .filter((message): message is Extract<ModelMessage, { role: 'user' }> => message.role === 'user')
    .map((message) => message.text);

describe('background subagents', () => {
  it('run while the parent goes on and notify it once, at its next turn', async () => {
    const harness = await createHarness({
      builtinTools: [...createBuiltinTools(), probe.tool],
      alwaysLoadedTools: BACKGROUND_TOOLS,
      responses: [
        { toolCalls: [call('b1', 'delegate_background', { prompt: 'survey the tests' })] },
        { text: 'started it' },
        { text: 'thanks for the survey' },
        { text: 'nothing new' },
      ],
      children: {
        b1: [{ toolCalls: [call('p', 'probe', { label: 'b1', ms: 300 })] }, { text: 'There are 12 tests.' }],
      },
    });
    const first = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'start' });
    expect(first.status).toBe('completed');
    const [started] = await harness.eventsOf('tool.completed');
    const { taskId } = JSON.parse(String(started!.output)) as { taskId: string };
    await until(
      async () => (await harness.core.listDelegations(harness.session.id))[0]?.status === 'completed',
      'the background task',
    );
    expect((await harness.core.listDelegations(harness.session.id))[0]).toMatchObject({
      childSessionId: taskId,
      kind: 'background',
      notifiedAt: null,
    });

    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'second' });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'third' });
    const texts = await userTexts(harness);
    expect(texts[0]).toBe('start');
    expect(texts[1]).toMatch(/^\[background task notification\] 1 background task/);
    expect(texts[1]).toContain('There are 12 tests.');
    expect(texts[1]!.endsWith('\n\nsecond')).toBe(true);
    expect(texts[2]).toBe('third');
    const notified = await harness.eventsOf('background.notified');
    expect(notified).toHaveLength(1);
    expect(notified[0]!.tasks).toMatchObject([
      { taskId, result: { status: 'completed', summary: 'There are 12 tests.' } },
    ]);
    // The turn's prompt stays what the person typed.
    expect((await harness.core.listTurns(harness.session.id)).map((turn) => turn.prompt)).toEqual([
      'start',
      'second',
      'third',
    ]);
  });

  it('a cancelled task stops with its tools, is listed as cancelled, and is not delivered again', async () => {
    const harness = await createHarness({
      builtinTools: [...createBuiltinTools(), probe.tool],
      alwaysLoadedTools: BACKGROUND_TOOLS,
      responses: [
        { toolCalls: [call('b1', 'delegate_background', { prompt: 'a long survey' })] },
        { toolCalls: [call('l1', 'background_task_list', {})] },
        { toolCalls: [call('c1', 'background_task_cancel', { taskId: 'b1' })] },
        { toolCalls: [call('l2', 'background_task_list', {})] },
        { text: 'cancelled it' },
        { text: 'next' },
      ],
      children: { b1: [{ toolCalls: [call('p', 'probe', { label: 'long', ms: 5_000 })] }, { text: 'never' }] },
    });
    const started = Date.now();
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(Date.now() - started).toBeLessThan(4_500);
    const completed = Object.fromEntries(
      (await harness.eventsOf('tool.completed')).map((event) => [event.toolCallId, event]),
    );
    expect(JSON.parse(String(completed.l1!.output))).toMatchObject([{ status: 'running', prompt: 'a long survey' }]);
    expect(completed.c1!.result).toMatchObject({ status: 'cancelled' });
    expect(JSON.parse(String(completed.l2!.output))).toMatchObject([{ status: 'cancelled', delivered: true }]);
    const [child] = await harness.core.listDelegations(harness.session.id);
    expect((await harness.core.listTurns(child!.childSessionId))[0]!.status).toBe('cancelled');
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'next' });
    expect(await harness.eventsOf('background.notified')).toEqual([]);
  });

  it('at most N run at once per session; close() stops the rest', async () => {
    const harness = await createHarness({
      builtinTools: [...createBuiltinTools(), probe.tool],
      alwaysLoadedTools: BACKGROUND_TOOLS,
      delegation: { maxBackground: 1 },
      responses: [
        {
          toolCalls: [
            call('b1', 'delegate_background', { prompt: 'one' }),
            call('b2', 'delegate_background', { prompt: 'two' }),
            call('x', 'background_task_cancel', { taskId: 'nope' }),
          ],
        },
        { text: 'ok' },
      ],
      children: { b1: [{ toolCalls: [call('p', 'probe', { label: 'one', ms: 5_000 })] }, { text: 'never' }] },
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    const completed = Object.fromEntries(
      (await harness.eventsOf('tool.completed')).map((event) => [event.toolCallId, event.result]),
    );
    expect(completed.b1).toMatchObject({ status: 'success' });
    expect(completed.b2).toMatchObject({ status: 'error', code: 'background_task_limit' });
    expect(completed.x).toMatchObject({ status: 'error', code: 'background_task_not_found' });
    const closing = Date.now();
    await harness.core.close();
    expect(Date.now() - closing).toBeLessThan(4_500);
    expect((await harness.core.listDelegations(harness.session.id)).map((child) => child.status)).toEqual([
      'cancelled',
    ]);
  });
});
