import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { call, createHarness } from '../__fixtures__/core-harness.js';
import type { SessionEventOf } from '@clawsmith/session-protocol';
import type { SessionEvent } from '../store/session-records.js';

function completed(events: SessionEvent[], toolCallId: string) {
  const event = events.find(
    (candidate): candidate is SessionEventOf<'tool.completed'> =>
      candidate.type === 'tool.completed' && candidate.toolCallId === toolCallId,
  );
  return event?.result;
}

const started = (events: SessionEvent[], toolCallId: string) =>
  events.some((event) => event.type === 'tool.started' && event.toolCallId === toolCallId);

const deferredTool: AnyToolDefinition = defineTool({
  name: 'jira_create_issue',
  description: 'Creates an issue in the tracker.',
  risk: 'read',
  capabilities: ['session.read'],
  concurrencySafe: true,
  deferred: true,
  searchMetadata: { aliases: ['ticket'], tags: ['jira'] },
  inputSchema: z.object({ title: z.string() }),
  summarize: (input) => `create ${input.title}`,
  execute: async (input) => `created ${input.title}`,
});

const crashingTool: AnyToolDefinition = defineTool({
  name: 'crash',
  description: 'Always throws.',
  risk: 'read',
  capabilities: ['filesystem.read'],
  concurrencySafe: false,
  inputSchema: z.object({}),
  summarize: () => 'crash',
  execute: async () => {
    throw new TypeError('cannot read properties of undefined');
  },
});

describe('one tool call, end to end', () => {
  it('a deferred tool named twice by two extensions is a startup error naming both sources', async () => {
    await expect(
      createHarness({
        extensions: [
          { source: 'plugin:first', tools: [deferredTool] },
          { source: 'plugin:second', tools: [deferredTool] },
        ],
        responses: [],
      }),
    ).rejects.toMatchObject({
      code: 'duplicate_tool',
      message: expect.stringContaining('one from plugin:first and one from plugin:second'),
    });
  });

  it('answers an unknown or inactive name with the deferred-tools gate, pointing to search_tools only when it exists', async () => {
    const deferred = await createHarness({
      extensions: [{ source: 'extension:jira', tools: [deferredTool] }],
      responses: [
        { toolCalls: [call('u', 'no_such_tool', {}), call('i', 'jira_create_issue', { title: 'x' })] },
        { text: 'ok' },
      ],
    });
    await deferred.core.runTurn({ sessionId: deferred.session.id, prompt: 'go' });
    const output = async (harness: typeof deferred, id: string) =>
      String((await harness.eventsOf('tool.completed')).find((event) => event.toolCallId === id)?.output);
    expect(await output(deferred, 'u')).toMatch(/^No tool named "no_such_tool" exists.*call search_tools/);
    expect(await output(deferred, 'i')).toContain('query "select:jira_create_issue" activates it by name');

    const plain = await createHarness({
      builtinTools: [crashingTool],
      responses: [{ toolCalls: [call('u', 'no_such_tool', {}), call('s', 'search_tools', {})] }, { text: 'ok' }],
    });
    await plain.core.runTurn({ sessionId: plain.session.id, prompt: 'go' });
    expect(await output(plain, 'u')).toBe(
      'No tool named "no_such_tool" exists, so nothing ran. Use only the tools you were given.',
    );
    expect(await output(plain, 's')).toBe(
      'No tool named "search_tools" exists, so nothing ran. Use only the tools you were given.',
    );
  });

  it('produces every refusal code from real calls, and tool.started only for calls that ran', async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'alpha\n' },
      extensions: [{ source: 'extension:jira', tools: [deferredTool, crashingTool] }],
      permissionMode: 'default',
      responses: [
        {
          toolCalls: [
            call('c1', 'no_such_tool', {}),
            call('c2', 'jira_create_issue', { title: 'x' }),
            call('c3', 'read_file', { path: 'a.txt' }),
            call('c4', 'read_file', { path: 'a.txt' }),
            call('c5', 'read_file', '{"path": "a.txt"'),
            call('c6', 'read_file', { path: 42 }),
            call('c7', 'write_file', { path: 'b.txt', content: 'new' }),
            call('c8', 'crash', {}),
          ],
        },
        { toolCalls: [call('c9', 'search_tools', { query: 'select:jira_create_issue' })] },
        { toolCalls: [call('c10', 'jira_create_issue', { title: 'x' })] },
        { text: 'Done.' },
      ],
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'go' });
    expect(result.status).toBe('completed');
    const events = await harness.events();
    expect(completed(events, 'c1')).toMatchObject({ status: 'error', code: 'unknown_tool', retryable: false });
    expect(completed(events, 'c2')).toMatchObject({ status: 'error', code: 'inactive_tool', retryable: true });
    expect(completed(events, 'c3')).toMatchObject({ status: 'success' });
    expect(completed(events, 'c4')).toMatchObject({ status: 'error', code: 'duplicate_call' });
    expect(completed(events, 'c5')).toMatchObject({ status: 'error', code: 'invalid_json', retryable: true });
    expect(completed(events, 'c6')).toMatchObject({ status: 'error', code: 'invalid_arguments', retryable: true });
    expect(completed(events, 'c7')).toMatchObject({ status: 'denied', code: 'permission_denied' });
    expect(completed(events, 'c8')).toMatchObject({ status: 'error', code: 'tool_failed' });
    expect(completed(events, 'c10')).toMatchObject({ status: 'success' });
    for (const id of ['c1', 'c2', 'c4', 'c5', 'c6', 'c7']) expect(started(events, id)).toBe(false);
    for (const id of ['c3', 'c8', 'c10']) expect(started(events, id)).toBe(true);
    // the denied write changed nothing
    expect(() => readFileSync(join(harness.workspace, 'b.txt'))).toThrow();
    // every assistant tool call has exactly one tool result, in call order
    const messages = await harness.core.listMessages(harness.session.id);
    const toolMessages = messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.toolCallId)).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
      'c5',
      'c6',
      'c7',
      'c8',
      'c9',
      'c10',
    ]);
    const crash = toolMessages.find((message) => message.toolCallId === 'c8')!;
    expect(crash.content).toBe('cannot read properties of undefined');
    // the activation shows in the evidence of the next request
    const requests = events.filter((event) => event.type === 'request.started');
    expect(requests[0]!.composition?.activatedTools).toEqual([]);
    expect(requests[2]!.composition?.activatedTools).toEqual(['jira_create_issue']);
    expect(requests[2]!.toolNames).toContain('jira_create_issue');
    expect(requests[2]!.toolSchemaSha256).not.toBe(requests[0]!.toolSchemaSha256);
  });

  it('denies through a hook that throws, and records the decision with its reason', async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'alpha\n' },
      hooks: [
        {
          name: 'policy-bot',
          decide: () => {
            throw new Error('policy server unreachable');
          },
        },
      ],
      responses: [{ toolCalls: [call('c1', 'read_file', { path: 'a.txt' })] }, { text: 'ok' }],
    });
    await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'read' });
    const events = await harness.events();
    expect(completed(events, 'c1')).toMatchObject({ status: 'denied', code: 'hook_denied' });
    expect(started(events, 'c1')).toBe(false);
    const decision = events.find((event) => event.type === 'tool.decision' && event.stage === 'hook');
    expect(decision).toMatchObject({
      action: 'deny',
      reason: expect.stringMatching(/policy-bot.*policy server unreachable.*fail closed/),
    });
  });

  it('gives the tool authorized: true and records its file change for undo', async () => {
    const harness = await createHarness({
      files: { 'a.txt': 'alpha\n' },
      permissionMode: 'accept-edits',
      responses: [
        { toolCalls: [call('c1', 'edit_file', { path: 'a.txt', oldText: 'alpha', newText: 'beta' })] },
        { text: 'edited' },
      ],
    });
    const result = await harness.core.runTurn({ sessionId: harness.session.id, prompt: 'edit' });
    expect(readFileSync(join(harness.workspace, 'a.txt'), 'utf8')).toBe('beta\n');
    expect(result.changedFiles.map((file) => file.path)).toEqual(['a.txt']);
    const startedEvent = (await harness.eventsOf('tool.started'))[0]!;
    expect(startedEvent).toMatchObject({
      toolCallId: 'c1',
      risk: 'workspace-write',
      sideEffect: true,
      turnId: result.turnId,
    });
    expect(startedEvent.toolSchemaSha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
