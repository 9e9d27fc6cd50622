import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type WireHandler,
  type WireServer,
  answerError,
  startEventStream,
  startWireServer,
  writeEvent,
} from './__fixtures__/wire-server.js';
import { caught, request } from './__fixtures__/adapter-test-helpers.js';
import { readFileSchema } from './__fixtures__/tool-schemas.js';
import { collectModelResponse } from './collect-model-response.js';
import type { ModelStreamEvent } from './model-stream.js';
import { createOpenAIProvider } from './openai-provider.js';
import { ProviderError } from './provider-error.js';

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    // A dated snapshot of the model asked for: what gen_ai.response.model reports.
    model: 'gpt-test-2026-12-01',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
}

const usageChunk = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'gpt-test-2026-12-01',
  choices: [],
  usage: { prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 },
});

function streamChunks(response: ServerResponse, chunks: readonly string[], done = true): void {
  startEventStream(response);
  for (const data of chunks) writeEvent(response, data);
  if (done) writeEvent(response, '[DONE]');
  response.end();
}

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: WireHandler): Promise<WireServer> {
  server = await startWireServer(handler);
  return server;
}

describe('createOpenAIProvider', () => {
  it('streams a text answer with usage, sending the conversation and tools in Chat Completions form', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo.' }),
        chunk({}, 'stop'),
        usageChunk,
      ]),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const events: ModelStreamEvent[] = [];
    for await (const event of provider.stream(request({ system: 'Be brief.', maxTokens: 100 }))) events.push(event);

    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo.' },
      { type: 'usage', usage: { inputTokens: 31, outputTokens: 7 } },
      { type: 'finish', reason: 'stop', model: 'gpt-test-2026-12-01' },
    ]);
    expect(wire.requests).toHaveLength(1);
    const [received] = wire.requests;
    expect(received!.url).toBe('/v1/chat/completions');
    expect(received!.headers.authorization).toBe('Bearer sk-test');
    expect(received!.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'read_file', description: 'Read a file', parameters: readFileSchema.inputSchema },
        },
      ],
      max_completion_tokens: 100,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('gathers a parallel batch of tool calls from interleaved fragments, arguments verbatim', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path": ' } }] }),
        chunk({
          tool_calls: [
            { index: 1, id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path": "b.' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.txt"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: 'txt"' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk,
      ]),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const response = await collectModelResponse(provider.stream(request()));
    expect(response).toEqual({
      text: '',
      toolCalls: [
        { id: 'call_a', name: 'read_file', argumentsText: '{"path": "a.txt"}' },
        // Malformed JSON reaches the caller as written, so core can answer invalid_json.
        { id: 'call_b', name: 'read_file', argumentsText: '{"path": "b.txt"' },
      ],
      usage: { inputTokens: 31, outputTokens: 7 },
      finishReason: 'tool-calls',
      model: 'gpt-test-2026-12-01',
    });
  });

  it('splits whole calls that a local server sends each at index 0 by their ids', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [
        chunk({
          tool_calls: [
            { index: 0, id: 'call_x', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } },
          ],
        }),
        chunk({
          tool_calls: [
            { index: 0, id: 'call_y', type: 'function', function: { name: 'read_file', arguments: '{"path":"y"}' } },
          ],
        }),
        chunk({}, 'stop'),
      ]),
    );
    const provider = createOpenAIProvider({ model: 'qwen3:8b', apiKey: 'k', baseURL: wire.baseURL });
    const response = await collectModelResponse(provider.stream(request()));
    expect(response.toolCalls.map((call) => [call.id, call.argumentsText])).toEqual([
      ['call_x', '{"path":"x"}'],
      ['call_y', '{"path":"y"}'],
    ]);
    // The server said stop, but the model is waiting for its tool results.
    expect(response.finishReason).toBe('tool-calls');
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'error'],
  ])('maps finish_reason %s to %s', async (wireReason, reason) => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [chunk({ content: 'cut' }), chunk({}, wireReason)]),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    expect((await collectModelResponse(provider.stream(request()))).finishReason).toBe(reason);
  });

  it('reports a server that never answers within the timeout as unavailable', async () => {
    const wire = await serve(() => undefined);
    const provider = createOpenAIProvider({
      model: 'gpt-test',
      apiKey: 'sk-test',
      baseURL: wire.baseURL,
      timeout: 200,
      maxRetries: 0,
    });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect([error.code, error.retryable]).toEqual(['provider_unavailable', true]);
    expect(error.message).toMatch(/timed out/);
  });

  it('sends tool results back as tool messages after the assistant tool calls, a failed one opening with its status and code', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [chunk({ content: 'Both read.' }), chunk({}, 'stop')]),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const response = await collectModelResponse(
      provider.stream(
        request({
          messages: [
            { role: 'user', text: 'Read a and b' },
            {
              role: 'assistant',
              text: '',
              toolCalls: [
                { id: 'call_a', name: 'read_file', argumentsText: '{"path":"a.txt"}' },
                { id: 'call_b', name: 'read_file', argumentsText: '{"path":' },
              ],
            },
            {
              role: 'tool',
              toolCallId: 'call_a',
              toolName: 'read_file',
              content: 'alpha',
              toolResult: { version: 1, status: 'success' },
            },
            {
              role: 'tool',
              toolCallId: 'call_b',
              toolName: 'read_file',
              content: 'The arguments are not valid JSON.',
              toolResult: { version: 1, status: 'error', code: 'invalid_json', retryable: true },
            },
          ],
        }),
      ),
    );
    expect(response.text).toBe('Both read.');
    expect(response.usage).toBeUndefined();
    expect((wire.requests[0]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Read a and b' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'alpha' },
      {
        role: 'tool',
        tool_call_id: 'call_b',
        content: '[tool status: error, code: invalid_json]\nThe arguments are not valid JSON.',
      },
    ]);
  });

  it('refuses a stream whose data is not JSON as a protocol error', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [chunk({ content: 'Hi' }), '{"id": "chatcmpl-1", "choices": [']),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(error.code).toBe('provider_protocol_error');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not JSON.*base URL/s);
  });

  it('treats a stream cut off before any finish_reason as unavailable (retryable)', async () => {
    const wire = await serve((_request, response) => streamChunks(response, [chunk({ content: 'Hi' })], false));
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(error.code).toBe('provider_unavailable');
    expect(error.retryable).toBe(true);
  });

  it('maps an error reported inside the stream by its type', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } })]),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(error.code).toBe('provider_unavailable');
  });

  it('refuses a tool call without a function name as a protocol error', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [
        chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(error.code).toBe('provider_protocol_error');
    expect(error.message).toMatch(/no function name/);
  });

  it('retries a 429 after the delay the server asks for, then succeeds', async () => {
    const wire = await serve((_request, response, attempt) => {
      if (attempt === 0)
        answerError(
          response,
          429,
          { error: { message: 'Rate limit reached', type: 'requests' } },
          { 'retry-after-ms': '10' },
        );
      else streamChunks(response, [chunk({ content: 'OK' }), chunk({}, 'stop')]);
    });
    const provider = createOpenAIProvider({
      model: 'gpt-test',
      apiKey: 'sk-test',
      baseURL: wire.baseURL,
      maxRetries: 2,
    });
    const response = await collectModelResponse(provider.stream(request()));
    expect(response).toMatchObject({ text: 'OK', finishReason: 'stop' });
    expect(wire.requests).toHaveLength(2);
    expect(wire.requests[1]!.headers['x-stainless-retry-count']).toBe('1');
    expect(wire.requests[1]!.body).toEqual(wire.requests[0]!.body);
  });

  it('reports a rate limit that outlasts the retries as retryable, with its status', async () => {
    const wire = await serve((_request, response) =>
      answerError(response, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after-ms': '5' }),
    );
    const provider = createOpenAIProvider({
      model: 'gpt-test',
      apiKey: 'sk-test',
      baseURL: wire.baseURL,
      maxRetries: 1,
    });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(wire.requests).toHaveLength(2);
    expect({ code: error.code, retryable: error.retryable, status: error.status, provider: error.provider }).toEqual({
      code: 'provider_rate_limited',
      retryable: true,
      status: 429,
      provider: 'openai',
    });
  });

  it.each([
    [401, 'provider_auth_failed', false],
    [404, 'provider_bad_request', false],
    [400, 'provider_bad_request', false],
  ])('maps HTTP %i to %s without retrying', async (status, code, retryable) => {
    const wire = await serve((_request, response) => answerError(response, status, { error: { message: 'refused' } }));
    const provider = createOpenAIProvider({
      model: 'gpt-test',
      apiKey: 'sk-test',
      baseURL: wire.baseURL,
      maxRetries: 2,
    });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(wire.requests).toHaveLength(1);
    expect([error.code, error.retryable, error.status]).toEqual([code, retryable, status]);
  });

  it.each([
    [
      'OpenAI',
      {
        error: {
          message: 'maximum context length is 64000 tokens',
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
        },
      },
    ],
    ['a local server', { error: { message: 'the request exceeds the available context size (64000 tokens)' } }],
  ])('maps a 400 from %s saying the request is too long to provider_context_too_long', async (_who, body) => {
    const wire = await serve((_request, response) => answerError(response, 400, body));
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(wire.requests).toHaveLength(1);
    expect([error.code, error.retryable, error.status]).toEqual(['provider_context_too_long', false, 400]);
    expect(error.message).toMatch(/compact it/);
  });

  it('passes the cache key as prompt_cache_key and reports cached prompt tokens as cacheReadTokens', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [
        chunk({ content: 'OK' }, 'stop'),
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 1_700_000_000,
          model: 'gpt-test',
          choices: [],
          usage: {
            prompt_tokens: 2048,
            completion_tokens: 1,
            total_tokens: 2049,
            prompt_tokens_details: { cached_tokens: 1920 },
          },
        }),
      ]),
    );
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const response = await collectModelResponse(provider.stream({ ...request(), cacheKey: 'session-1' }));
    expect(response.usage).toEqual({ inputTokens: 2048, outputTokens: 1, cacheReadTokens: 1920 });
    expect((wire.requests[0]!.body as { prompt_cache_key: string }).prompt_cache_key).toBe('session-1');
  });

  it('reports a server that keeps failing with 5xx as unavailable after the retries', async () => {
    const wire = await serve((_request, response) =>
      answerError(response, 503, { error: { message: 'busy' } }, { 'retry-after-ms': '5' }),
    );
    const provider = createOpenAIProvider({
      model: 'gpt-test',
      apiKey: 'sk-test',
      baseURL: wire.baseURL,
      maxRetries: 2,
    });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect(wire.requests).toHaveLength(3);
    expect([error.code, error.retryable]).toEqual(['provider_unavailable', true]);
  });

  it('ends with finish cancelled when the signal aborts mid-stream, and hangs up', async () => {
    let hungUp: Promise<void> | undefined;
    const wire = await serve((_request, response, _attempt, closed) => {
      hungUp = closed;
      startEventStream(response);
      writeEvent(response, chunk({ content: 'Partial' }));
      // Never finishes: only the client's abort can end this stream.
    });
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    for await (const event of provider.stream(request({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'text-delta') controller.abort();
    }
    expect(events).toEqual([
      { type: 'text-delta', text: 'Partial' },
      { type: 'finish', reason: 'cancelled' },
    ]);
    await hungUp;
    expect(wire.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const wire = await serve((_request, response) => streamChunks(response, [chunk({}, 'stop')]));
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: wire.baseURL });
    const response = await collectModelResponse(provider.stream(request({ signal: AbortSignal.abort() })));
    expect(response.finishReason).toBe('cancelled');
    expect(wire.requests).toHaveLength(0);
  });

  it('reports a refused connection as unavailable', async () => {
    const wire = await serve(() => undefined);
    const deadURL = wire.baseURL;
    await wire.close();
    server = undefined;
    const provider = createOpenAIProvider({ model: 'gpt-test', apiKey: 'sk-test', baseURL: deadURL, maxRetries: 0 });
    const error = await caught(collectModelResponse(provider.stream(request())));
    expect([error.code, error.retryable]).toEqual(['provider_unavailable', true]);
  });
});

describe('createOpenAIProvider credentials', () => {
  it('refuses to start without a key, naming the variable and the ways to run without one', () => {
    let thrown: unknown;
    try {
      createOpenAIProvider({ model: 'gpt-test', environment: {} });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProviderError);
    expect((thrown as ProviderError).code).toBe('provider_missing_api_key');
    expect((thrown as ProviderError).message).toMatch(/OPENAI_API_KEY.*clawsmith demo.*--script/s);
  });

  it('refuses a remote base URL without a key', () => {
    expect(() =>
      createOpenAIProvider({ model: 'm', baseURL: 'https://models.example.com/v1', environment: {} }),
    ).toThrow(/OPENAI_API_KEY/);
  });

  it('reads key and base URL from the environment', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [chunk({ content: 'env' }), chunk({}, 'stop')]),
    );
    const provider = createOpenAIProvider({
      model: 'gpt-test',
      environment: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: wire.baseURL },
    });
    expect((await collectModelResponse(provider.stream(request()))).text).toBe('env');
    expect(wire.requests[0]!.headers.authorization).toBe('Bearer sk-env');
  });

  it('talks to a local server without a key, sending a placeholder', async () => {
    const wire = await serve((_request, response) =>
      streamChunks(response, [chunk({ content: 'local' }), chunk({}, 'stop')]),
    );
    const provider = createOpenAIProvider({ model: 'qwen3:8b', baseURL: wire.baseURL, environment: {} });
    expect((await collectModelResponse(provider.stream(request()))).text).toBe('local');
    expect(wire.requests[0]!.headers.authorization).toBe('Bearer clawsmith-local-no-key');
  });
});
