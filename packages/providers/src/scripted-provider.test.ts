import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { collectModelResponse } from './collect-model-response.js';
import type { ModelStreamEvent } from './model-stream.js';
import { ModelScriptError } from './model-script.js';
import { createScriptedProvider } from './scripted-provider.js';

const request = { requestId: 'req', messages: [{ role: 'user', text: 'go' }], tools: [] } as const;

function readmeScript(): string {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /## Script format[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README has no json example under "## Script format"');
  return block;
}

async function events(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const collected: ModelStreamEvent[] = [];
  for await (const event of stream) collected.push(event);
  return collected;
}

describe('createScriptedProvider', () => {
  it('replays the README example file, one response per request, then answers empty', async () => {
    const root = testdir({ 'demo.json': readmeScript() });
    const provider = createScriptedProvider({ file: join(root, 'demo.json') });
    expect([provider.name, provider.model, provider.remaining]).toEqual(['scripted', 'demo.json', 3]);

    expect(await collectModelResponse(provider.stream(request))).toEqual({
      text: '',
      toolCalls: [{ id: 'call_1', name: 'read_file', argumentsText: '{"path":"a.txt"}' }],
      finishReason: 'tool-calls',
    });
    // A string is sent exactly as written, malformed JSON included.
    expect(await collectModelResponse(provider.stream(request))).toEqual({
      text: '',
      toolCalls: [{ id: 'call_2', name: 'edit_file', argumentsText: '{"path": "a.txt"' }],
      finishReason: 'tool-calls',
    });
    expect(await collectModelResponse(provider.stream(request))).toEqual({
      text: 'Done.',
      toolCalls: [],
      finishReason: 'stop',
    });
    expect(provider.remaining).toBe(0);
    expect(await events(provider.stream(request))).toEqual([{ type: 'finish', reason: 'stop' }]);
    expect(await events(provider.stream(request))).toEqual([{ type: 'finish', reason: 'stop' }]);
  });

  it('streams text before a batch of tool calls, with usage when the script gives it', async () => {
    const provider = createScriptedProvider({
      script: {
        responses: [
          {
            text: 'Reading both.',
            toolCalls: [
              { id: 'a', name: 'read_file', arguments: { path: 'a.txt', nested: { deep: [1, 'two'] } } },
              { id: 'b', name: 'read_file', arguments: '  {"path" : "b.txt"}  ' },
              { name: 'list_tasks' },
            ],
            usage: { inputTokens: 10, outputTokens: 4 },
            model: 'scripted-model-2026-12-01',
          },
        ],
      },
    });
    expect(await events(provider.stream(request))).toEqual([
      { type: 'text-delta', text: 'Reading both.' },
      {
        type: 'tool-call',
        toolCall: { id: 'a', name: 'read_file', argumentsText: '{"path":"a.txt","nested":{"deep":[1,"two"]}}' },
      },
      { type: 'tool-call', toolCall: { id: 'b', name: 'read_file', argumentsText: '  {"path" : "b.txt"}  ' } },
      { type: 'tool-call', toolCall: { id: 'call_1_3', name: 'list_tasks', argumentsText: '{}' } },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 4 } },
      { type: 'finish', reason: 'tool-calls', model: 'scripted-model-2026-12-01' },
    ]);
  });

  it('passes non-JSON argument strings through untouched', async () => {
    const verbatim = [
      '',
      'not json at all',
      '{"a": 1,}',
      '[1, 2]',
      '"just a string"',
      '{"emoji": "\u{1F600}", "nul": "\\u0000"}',
    ];
    const provider = createScriptedProvider({
      script: {
        responses: verbatim.map((text, index) => ({
          toolCalls: [{ id: `c${index}`, name: 'edit_file', arguments: text }],
        })),
      },
    });
    for (const text of verbatim) {
      const response = await collectModelResponse(provider.stream(request));
      expect(response.toolCalls[0]!.argumentsText).toBe(text);
    }
  });

  it('answers a request whose signal is already aborted with finish cancelled, without using a response', async () => {
    const provider = createScriptedProvider({ script: { responses: [{ text: 'kept' }] } });
    expect(await events(provider.stream({ ...request, signal: AbortSignal.abort() }))).toEqual([
      { type: 'finish', reason: 'cancelled' },
    ]);
    expect((await collectModelResponse(provider.stream(request))).text).toBe('kept');
  });

  it('ends a response with the finish reason the script gives', async () => {
    const provider = createScriptedProvider({
      script: {
        responses: [
          { text: 'cut', finishReason: 'length' },
          { text: 'no', finishReason: 'error' },
        ],
      },
    });
    expect((await collectModelResponse(provider.stream(request))).finishReason).toBe('length');
    expect((await collectModelResponse(provider.stream(request))).finishReason).toBe('error');
  });

  it('fails at creation for a missing file, naming it', () => {
    const root = testdir({});
    const missing = join(root, 'nope.json');
    expect(() => createScriptedProvider({ file: missing })).toThrow(
      expect.objectContaining({ code: 'script_unreadable', source: missing }),
    );
    expect(() => createScriptedProvider({ file: missing })).toThrow(
      /nope\.json: cannot read the script \(no such file\)/,
    );
  });

  it('fails at creation for a malformed file, with line and column', () => {
    const root = testdir({ 'broken.json': '{\n  "responses": [\n    { "text": "a" }\n    { "text": "b" }\n  ]\n}\n' });
    let thrown: unknown;
    try {
      createScriptedProvider({ file: join(root, 'broken.json') });
    } catch (error) {
      thrown = error;
    }
    expect(ModelScriptError.isInstance(thrown)).toBe(true);
    const error = thrown as ModelScriptError;
    expect(error.code).toBe('invalid_script');
    expect(error.location).toEqual({ kind: 'position', line: 4, column: 5 });
    expect(error.message).toContain('broken.json:4:5: not valid JSON');
  });

  it('rejects an invalid script object by its JSON path', () => {
    expect(() => createScriptedProvider({ script: { responses: [{ toolCalls: [{ id: 'x' }] }] } as never })).toThrow(
      expect.objectContaining({
        code: 'invalid_script',
        location: { kind: 'path', path: 'responses[0].toolCalls[0].name' },
      }),
    );
  });

  it('gives each delegated child its own script, by the delegating call id', async () => {
    const provider = createScriptedProvider({
      script: {
        responses: [{ text: 'parent' }],
        children: { d1: { responses: [{ text: 'child one' }] }, d2: { responses: [{ text: 'child two' }] } },
      },
    });
    const textOf = async (source: typeof provider) => {
      let text = '';
      for await (const event of source.stream({ requestId: 'r', messages: [], tools: [] }))
        if (event.type === 'text-delta') text += event.text;
      return text;
    };
    expect(await textOf(provider.childProvider('d2')!)).toBe('child two');
    expect(await textOf(provider.childProvider('d1')!)).toBe('child one');
    expect(provider.childProvider('d1')).toBe(provider.childProvider('d1'));
    expect(provider.childProvider('d1')!.remaining).toBe(0);
    expect(provider.childProvider('nope')).toBeUndefined();
    expect(await textOf(provider)).toBe('parent');
  });
});
