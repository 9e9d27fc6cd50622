import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { caught, request } from './__fixtures__/adapter-test-helpers.js';
import { readFileSchema } from './__fixtures__/tool-schemas.js';
import {
  type WireHandler,
  type WireServer,
  answerError,
  startEventStream,
  startWireServer,
  writeEvent,
} from './__fixtures__/wire-server.js';
import { createAnthropicProvider } from './anthropic-provider.js';
import { collectModelResponse } from './collect-model-response.js';
import type { ModelStreamEvent } from './model-stream.js';

type WireEvent = readonly [event: string, data: Record<string, unknown> | string];

const messageStart: WireEvent = [
  'message_start',
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      // A dated snapshot of the model asked for: what gen_ai.response.model reports.
      model: 'claude-test-20261201',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 40, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 2 },
    },
  },
];
const textStart = (index: number): WireEvent => [
  'content_block_start',
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
];
const textDelta = (index: number, text: string): WireEvent => [
  'content_block_delta',
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text } },
];
const toolStart = (index: number, id: string, name: string): WireEvent => [
  'content_block_start',
  { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } },
];
const jsonDelta = (index: number, partial: string): WireEvent => [
  'content_block_delta',
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } },
];
const blockStop = (index: number): WireEvent => ['content_block_stop', { type: 'content_block_stop', index }];
const messageDelta = (stopReason: string, outputTokens: number): WireEvent => [
  'message_delta',
  {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  },
];
const messageStop: WireEvent = ['message_stop', { type: 'message_stop' }];
const ping: WireEvent = ['ping', { type: 'ping' }];

function streamEvents(response: ServerResponse, events: readonly WireEvent[]): void {
  startEventStream(response);
  for (const [event, data] of events)
    writeEvent(response, typeof data === 'string' ? data : JSON.stringify(data), event);
  response.end();
}

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: WireHandler): Promise<WireServer> {
  server = await startWireServer(handler, '');
  return server;
}

describe('createAnthropicProvider', () => {
  it('streams a text answer with usage, the system prompt apart and tools as input_schema', async () => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [
        messageStart,
        textStart(0),
        ping,
        textDelta(0, 'Hel'),
        textDelta(0, 'lo.'),
        blockStop(0),
        messageDelta('end_turn', 9),
        messageStop,
      ]),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    const events: ModelStreamEvent[] = [];
    for await (const event of provider.stream(
      request({
        system: 'Be brief.',
        messages: [
          { role: 'system', text: 'Use tools.' },
          { role: 'user', text: 'Hello' },
        ],
      }),
    )) {
      events.push(event);
    }
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo.' },
      { type: 'usage', usage: { inputTokens: 42, outputTokens: 9, cacheReadTokens: 2, cacheWriteTokens: 0 } },
      { type: 'finish', reason: 'stop', model: 'claude-test-20261201' },
    ]);
    const [received] = wire.requests;
    expect(received!.url).toBe('/v1/messages');
    expect(received!.headers.authorization).toBe('Bearer sk-ant-test');
    expect(received!.headers['anthropic-version']).toBeTypeOf('string');
    expect(received!.body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      // Cache breakpoints: after the tools, the system prompt and the latest turns.
      system: [{ type: 'text', text: 'Be brief.\n\nUse tools.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello', cache_control: { type: 'ephemeral' } }] }],
      tools: [
        {
          name: 'read_file',
          description: 'Read a file',
          input_schema: readFileSchema.inputSchema,
          cache_control: { type: 'ephemeral' },
        },
      ],
      stream: true,
    });
  });

  it('gathers a parallel batch of tool_use blocks from input_json_delta fragments, with the text before them', async () => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [
        messageStart,
        textStart(0),
        textDelta(0, 'Reading both.'),
        blockStop(0),
        toolStart(1, 'toolu_a', 'read_file'),
        jsonDelta(1, ''),
        jsonDelta(1, '{"path": '),
        jsonDelta(1, '"a.txt"}'),
        blockStop(1),
        toolStart(2, 'toolu_b', 'read_file'),
        jsonDelta(2, '{"path": "b.txt"}'),
        blockStop(2),
        toolStart(3, 'toolu_c', 'list_tasks'),
        blockStop(3),
        messageDelta('tool_use', 30),
        messageStop,
      ]),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    expect(await collectModelResponse(provider.stream(request()))).toEqual({
      text: 'Reading both.',
      toolCalls: [
        { id: 'toolu_a', name: 'read_file', argumentsText: '{"path": "a.txt"}' },
        { id: 'toolu_b', name: 'read_file', argumentsText: '{"path": "b.txt"}' },
        // A tool without input streams no delta; its input came with content_block_start.
        { id: 'toolu_c', name: 'list_tasks', argumentsText: '{}' },
      ],
      usage: { inputTokens: 42, outputTokens: 30, cacheReadTokens: 2, cacheWriteTokens: 0 },
      finishReason: 'tool-calls',
      model: 'claude-test-20261201',
    });
  });

  it('sends tool results as tool_result blocks in one user turn, with is_error for anything but success', async () => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [
        messageStart,
        textStart(0),
        textDelta(0, 'Done.'),
        blockStop(0),
        messageDelta('end_turn', 2),
        messageStop,
      ]),
    );
    const provider = createAnthropicProvider({
      model: 'claude-test',
      apiKey: 'sk-ant-test',
      baseURL: wire.baseURL,
      maxTokens: 1000,
    });
    const toolResult = (
      id: string,
      status: 'success' | 'error' | 'denied' | 'cancelled' | 'unknown',
      content: string,
    ) =>
      ({ role: 'tool', toolCallId: id, toolName: 'read_file', content, toolResult: { version: 1, status } }) as const;
    const response = await collectModelResponse(
      provider.stream(
        request({
          maxTokens: 500,
          messages: [
            { role: 'user', text: 'Read them' },
            {
              role: 'assistant',
              text: 'Reading.',
              toolCalls: ['a', 'b', 'c', 'd', 'e'].map((letter) => ({
                id: `toolu_${letter}`,
                name: 'read_file',
                argumentsText: `{"path":"${letter}.txt"}`,
              })),
            },
            toolResult('toolu_a', 'success', 'alpha'),
            toolResult('toolu_b', 'error', 'No such file.'),
            toolResult('toolu_c', 'denied', 'Permission denied.'),
            toolResult('toolu_d', 'cancelled', 'Cancelled.'),
            toolResult('toolu_e', 'unknown', 'Interrupted.'),
            { role: 'user', text: 'And then?' },
          ],
        }),
      ),
    );
    expect(response.text).toBe('Done.');
    const body = wire.requests[0]!.body as { max_tokens: number; messages: unknown };
    expect(body.max_tokens).toBe(500);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read them' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          ...['a', 'b', 'c', 'd', 'e'].map((letter) => ({
            type: 'tool_use',
            id: `toolu_${letter}`,
            name: 'read_file',
            input: { path: `${letter}.txt` },
            // The second-latest turn's breakpoint: where the previous step wrote its prefix.
            ...(letter === 'e' ? { cache_control: { type: 'ephemeral' } } : {}),
          })),
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'alpha' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'No such file.', is_error: true },
          { type: 'tool_result', tool_use_id: 'toolu_c', content: 'Permission denied.', is_error: true },
          { type: 'tool_result', tool_use_id: 'toolu_d', content: 'Cancelled.', is_error: true },
          { type: 'tool_result', tool_use_id: 'toolu_e', content: 'Interrupted.', is_error: true },
          { type: 'text', text: 'And then?', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it.each([
    ['max_tokens', 'length'],
    ['refusal', 'error'],
    ['stop_sequence', 'stop'],
  ])('maps stop_reason %s to %s', async (wireReason, reason) => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [messageStart, messageDelta(wireReason, 3), messageStop]),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    expect((await collectModelResponse(provider.stream(request()))).finishReason).toBe(reason);
  });

  it('refuses a stream whose data is not JSON as a protocol error', async () => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [
        messageStart,
        textStart(0),
        ['content_block_delta', '{"type": "content_block_delta", "index": 0, "delta": {'],
      ]),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect([error.code, error.retryable]).toEqual(['provider_protocol_error', false]);
  });

  it('refuses a delta for a content block that never started', async () => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [messageStart, jsonDelta(4, '{}'), messageStop]),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(error.code).toBe('provider_protocol_error');
    expect(error.message).toMatch(/content block 4/);
  });

  it('treats a stream cut off before message_stop as unavailable (retryable)', async () => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [messageStart, textStart(0), textDelta(0, 'Hi')]),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect([error.code, error.retryable]).toEqual(['provider_unavailable', true]);
  });

  it('maps an overloaded error event inside the stream to unavailable', async () => {
    const wire = await serve((_request, response) =>
      streamEvents(response, [
        messageStart,
        ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
      ]),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect([error.code, error.retryable]).toEqual(['provider_unavailable', true]);
  });

  it('retries a 429 after the delay the server asks for, then succeeds', async () => {
    const wire = await serve((_request, response, attempt) => {
      if (attempt === 0) {
        answerError(
          response,
          429,
          { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
          { 'retry-after-ms': '10' },
        );
      } else {
        streamEvents(response, [
          messageStart,
          textStart(0),
          textDelta(0, 'OK'),
          blockStop(0),
          messageDelta('end_turn', 1),
          messageStop,
        ]);
      }
    });
    const provider = createAnthropicProvider({
      model: 'claude-test',
      apiKey: 'sk-ant-test',
      baseURL: wire.baseURL,
      maxRetries: 2,
    });
    expect(await collectModelResponse(provider.stream(request()))).toMatchObject({ text: 'OK', finishReason: 'stop' });
    expect(wire.requests).toHaveLength(2);
    expect(wire.requests[1]!.headers['x-stainless-retry-count']).toBe('1');
  });

  it('maps the "prompt is too long" 400 to provider_context_too_long', async () => {
    const wire = await serve((_request, response) =>
      answerError(response, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
      }),
    );
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(wire.requests).toHaveLength(1);
    expect([error.code, error.retryable, error.status]).toEqual(['provider_context_too_long', false, 400]);
  });

  it.each([
    [429, 'provider_rate_limited', true, 2],
    [529, 'provider_unavailable', true, 2],
    [401, 'provider_auth_failed', false, 1],
    [400, 'provider_bad_request', false, 1],
  ])('maps HTTP %i to %s (retryable %s) after %i attempt(s)', async (status, code, retryable, attempts) => {
    const wire = await serve((_request, response) =>
      answerError(response, status, { type: 'error', error: { type: 'x', message: 'no' } }, { 'retry-after-ms': '5' }),
    );
    const provider = createAnthropicProvider({
      model: 'claude-test',
      apiKey: 'sk-ant-test',
      baseURL: wire.baseURL,
      maxRetries: 1,
    });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(wire.requests).toHaveLength(attempts);
    expect([error.code, error.retryable, error.status, error.provider]).toEqual([code, retryable, status, 'anthropic']);
  });

  it('ends with finish cancelled when the signal aborts mid-stream, keeping tool calls already complete', async () => {
    let hungUp: Promise<void> | undefined;
    const wire = await serve((_request, response, _attempt, closed) => {
      hungUp = closed;
      startEventStream(response);
      for (const [event, data] of [
        messageStart,
        toolStart(0, 'toolu_a', 'read_file'),
        jsonDelta(0, '{"path":"a"}'),
        blockStop(0),
        toolStart(1, 'toolu_b', 'read_file'),
        jsonDelta(1, '{"pa'),
      ]) {
        writeEvent(response, JSON.stringify(data), event);
      }
    });
    const provider = createAnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: wire.baseURL });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    for await (const event of provider.stream(request({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'tool-call') controller.abort();
    }
    expect(events).toEqual([
      { type: 'tool-call', toolCall: { id: 'toolu_a', name: 'read_file', argumentsText: '{"path":"a"}' } },
      { type: 'finish', reason: 'cancelled' },
    ]);
    await hungUp;
  });

  it('refuses to start without a key, naming ANTHROPIC_API_KEY, and needs none for a local server', async () => {
    expect(() => createAnthropicProvider({ model: 'claude-test', environment: {} })).toThrow(
      /ANTHROPIC_API_KEY.*clawsmith demo/s,
    );
    const wire = await serve((_request, response) =>
      streamEvents(response, [messageStart, messageDelta('end_turn', 0), messageStop]),
    );
    const provider = createAnthropicProvider({
      model: 'claude-test',
      environment: { ANTHROPIC_BASE_URL: wire.baseURL },
    });
    expect(await collectModelResponse(provider.stream(request()))).toEqual({
      text: '',
      toolCalls: [],
      usage: { inputTokens: 42, outputTokens: 0, cacheReadTokens: 2, cacheWriteTokens: 0 },
      finishReason: 'stop',
      model: 'claude-test-20261201',
    });
    expect(wire.requests[0]!.headers.authorization).toBe('Bearer clawsmith-local-no-key');
  });
});
