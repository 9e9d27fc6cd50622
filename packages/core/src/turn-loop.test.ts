import { defineTool, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from './__fixtures__/core-harness.js';

function blockingTool(onStart: () => void): AnyToolDefinition {
  return defineTool({
    name: 'block',
    description: 'Waits until cancelled.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: false,
    inputSchema: z.object({}),
    summarize: () => 'block',
    execute: (_input, context) =>
      new Promise((_resolve, reject) => {
        context.signal.addEventListener(
          'abort',
          () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
          { once: true },
        );
        onStart();
      }),
  });
}

describe('the turn loop', () => {
  it('cancels the running tool and every later call, and closes the turn as cancelled', async () => {
    const controller = new AbortController();
    const harness = await createHarness({
      builtinTools: [blockingTool(() => controller.abort())],
      files: { 'a.txt': 'a' },
      responses: [
        { toolCalls: [call('b1', 'block', {}), call('b2', 'block', {}), call('r1', 'todo_list', {})] },
        { text: 'never sent' },
      ],
    });
    const result = await harness.core.runTurn({
      sessionId: harness.session.id,
      prompt: 'go',
      signal: controller.signal,
    });
    expect(result.status).toBe('cancelled');
    const results = (await harness.eventsOf('tool.completed')).map((event) => [
      event.toolCallId,
      (event.result as { status: string }).status,
    ]);
    expect(results).toEqual([
      ['b1', 'cancelled'],
      ['b2', 'error'],
      ['r1', 'cancelled'],
    ]);
    expect((await harness.eventsOf('turn.completed'))[0]).toMatchObject({ status: 'cancelled' });
  });

  it('stops waiting for a tool that ignores cancellation, and says it may still be running', async () => {
    const controller = new AbortController();
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'Ignores its abort signal.',
      risk: 'read',
      capabilities: ['filesystem.read'],
      concurrencySafe: false,
      inputSchema: z.object({}),
      summarize: () => 'stubborn',
      execute: () => {
        setTimeout(() => controller.abort(), 10);
        return new Promise(() => undefined);
      },
    });
    const harness = await createHarness({
      builtinTools: [stubborn],
      cancelGraceMs: 200,
      responses: [{ toolCalls: [call('s', 'stubborn', {})] }, { text: 'never' }],
    });
    const result = await harness.core.runTurn({
      sessionId: harness.session.id,
      prompt: 'go',
      signal: controller.signal,
    });
    expect(result.status).toBe('cancelled');
    const [completed] = await harness.eventsOf('tool.completed');
    expect(completed).toMatchObject({
      result: { status: 'cancelled', code: 'cancelled' },
      output: expect.stringMatching(/may still be running/),
    });
  });

  it('stops at the step limit and says so', async () => {
    const harness = await createHarness({
      maxSteps: 2,
      responses: [
        { toolCalls: [call('a', 'todo_list', {})] },
        { toolCalls: [call('b', 'todo_write', { todos: [] })] },
        { text: 'never' },
      ],
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'loop' });
    expect(result).toMatchObject({ status: 'step_limit', steps: 2 });
  });

  it('persists request evidence and sends the full closed history with every request', async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'alpha' },
      responses: [{ toolCalls: [call('r', 'read_file', { path: 'a.txt' })] }, { text: 'It says alpha.' }],
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'read a' });
    expect(result).toMatchObject({ status: 'completed', text: 'It says alpha.', steps: 2 });
    const requests = await harness.eventsOf('request.started');
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.toolNames).toEqual(
        expect.arrayContaining(['read_file', 'run_command', 'todo_write', 'read_artifact']),
      );
      expect(request.toolSchemaSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(request.requestId).toEqual(expect.any(String));
    }
    const kinds = (await harness.events()).map((event) => event.type);
    expect(kinds.indexOf('turn.started')).toBeLessThan(kinds.indexOf('request.started'));
    expect(kinds.at(-1)).toBe('turn.completed');
    const sequences = (await harness.events()).map((event) => event.sequence);
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
  });

  it('keeps the complete log a command stored itself, and bounds only the inline text', async () => {
    const harness = await createHarness({
      permissionMode: 'full-auto',
      responses: [{ toolCalls: [call('s', 'run_command', { command: 'seq 1 20000' })] }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'count' });
    const [completed] = await harness.eventsOf('tool.completed');
    const artifact = completed!.artifact as { id: string; lineCount: number };
    expect(completed!.result).toMatchObject({ status: 'success' });
    expect(artifact.lineCount).toBeGreaterThanOrEqual(20_000);
    const lines = await harness.home.artifacts.readLines(harness.session.id, artifact.id, {
      startLine: 9_999,
      endLine: 10_001,
    });
    expect(Buffer.from(lines.bytes).toString('utf8')).toBe('9999\n10000\n10001\n');
    expect(Buffer.byteLength(String(completed!.output))).toBeLessThanOrEqual(50_000);
  });

  it('externalises content over 50 KB and names the same artifact in the event, the result and the message', async () => {
    const big = defineTool({
      name: 'big',
      description: 'Returns a lot.',
      risk: 'read',
      capabilities: ['filesystem.read'],
      concurrencySafe: true,
      inputSchema: z.object({}),
      summarize: () => 'big',
      execute: async () => Array.from({ length: 4_000 }, (_, index) => `line ${index} ${'x'.repeat(20)}`).join('\n'),
    });
    const harness = await createHarness({
      builtinTools: [big],
      responses: [{ toolCalls: [call('g', 'big', {})] }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'big' });
    const [completed] = await harness.eventsOf('tool.completed');
    const artifact = completed!.artifact as { id: string; byteLength: number };
    expect(artifact.byteLength).toBeGreaterThan(50_000);
    expect((completed!.result as { artifact: unknown }).artifact).toEqual(artifact);
    const message = (await harness.core.listMessages(harness.session.id)).find(
      (candidate) => candidate.role === 'tool',
    );
    expect(message).toMatchObject({ toolResult: { artifact } });
    expect(message!.role === 'tool' && message!.content.length).toBeLessThan(50_000);
    expect(message!.role === 'tool' && message!.content).toContain(artifact.id);
  });
});
