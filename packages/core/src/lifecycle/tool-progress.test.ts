import { defineTool, type AnyToolDefinition, type ToolProgress } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import { PROGRESS_BOUNDS } from './call-progress.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tool that reports progress like a careless third party would, and keeps its reporter after returning. */
function carelessTool() {
  const kept: { report?: (progress: ToolProgress) => void } = {};
  const tool = defineTool({
    name: 'slow_import',
    description: 'Imports slowly and reports progress.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: false,
    inputSchema: z.object({}),
    summarize: () => 'slow import',
    async execute(_input, context) {
      const report = context.reportProgress!;
      kept.report = report;
      report({ progress: 1, total: 3, message: 'reading' });
      report({ progress: Number.NaN, total: 3 });
      report({ progress: -4, total: -1 });
      report(null as unknown as ToolProgress);
      report({ progress: 2, total: 3, message: 'x'.repeat(1024 * 1024) });
      await sleep(PROGRESS_BOUNDS.intervalMs + 300);
      // Still inside its interval when the tool returns: the completion is the final state.
      report({ progress: 3, total: 3, message: 'done' });
      return 'imported 3 records';
    },
  });
  return { tool: tool as AnyToolDefinition, kept };
}

describe('tool.progress', () => {
  it('shows a call’s progress as throttled, bounded events between tool.started and tool.completed', async () => {
    const { tool, kept } = carelessTool();
    const harness = await createHarness({
      extensions: [{ source: 'plugin:importer', tools: [tool] }],
      responses: [{ toolCalls: [call('c1', 'slow_import', {})] }, { text: 'Imported.' }],
    });
    // A subscriber that throws must not break the call or the turn.
    harness.core.subscribe((event) => {
      if (event.type === 'tool.progress') throw new Error('the listener broke');
    });
    const turn = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'import' });
    expect(turn.status).toBe('completed');

    const events = await harness.events();
    const ofCall = events
      .filter((event) => 'toolCallId' in event && event.toolCallId === 'c1')
      .map((event) => event.type);
    expect(ofCall).toEqual(['tool.decision', 'tool.started', 'tool.progress', 'tool.progress', 'tool.completed']);
    const progress = events.filter((event) => event.type === 'tool.progress');
    expect(progress.map(({ toolName, progress, total }) => ({ toolName, progress, total }))).toEqual([
      { toolName: 'slow_import', progress: 1, total: 3 },
      { toolName: 'slow_import', progress: 2, total: 3 },
    ]);
    expect(progress[0]?.message).toBe('reading');
    expect(String(progress[1]?.message)).toHaveLength(PROGRESS_BOUNDS.messageCharacters);
    expect(progress.every((event) => event.turnId === turn.turnId)).toBe(true);

    // Progress is not output: the model reads only what the tool returned.
    const messages = await harness.core.listMessages(harness.session.id);
    const answer = messages.find((message) => message.role === 'tool');
    expect(answer).toMatchObject({ content: 'imported 3 records' });
    expect(events.find((event) => event.type === 'tool.completed')).toMatchObject({ output: 'imported 3 records' });

    // A report after the call completed writes nothing.
    kept.report?.({ progress: 3, total: 3 });
    await sleep(PROGRESS_BOUNDS.intervalMs + 100);
    expect((await harness.eventsOf('tool.progress')).length).toBe(2);
  });

  it('gives every call its own reporter: a parallel read-only batch reports per call id', async () => {
    const first = carelessTool();
    const second = defineTool({
      name: 'quick_count',
      description: 'Counts quickly.',
      risk: 'read',
      capabilities: ['filesystem.read'],
      concurrencySafe: true,
      inputSchema: z.object({}),
      summarize: () => 'count',
      async execute(_input, context) {
        context.reportProgress?.({ progress: 5, total: 5 });
        return 'counted';
      },
    });
    const harness = await createHarness({
      extensions: [
        { source: 'plugin:importer', tools: [{ ...first.tool, concurrencySafe: true }, second as AnyToolDefinition] },
      ],
      responses: [{ toolCalls: [call('a', 'slow_import', {}), call('b', 'quick_count', {})] }, { text: 'Both.' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'both' });
    const progress = await harness.eventsOf('tool.progress');
    expect(progress.filter((event) => event.toolCallId === 'a').map((event) => event.progress)).toEqual([1, 2]);
    expect(progress.filter((event) => event.toolCallId === 'b').map((event) => event.progress)).toEqual([5]);
    const events = await harness.events();
    const completedB = events.findIndex((event) => event.type === 'tool.completed' && event.toolCallId === 'b');
    const lastProgressB = events.findLastIndex((event) => event.type === 'tool.progress' && event.toolCallId === 'b');
    expect(lastProgressB).toBeLessThan(completedB);
  });
});
