// A real HTTP server on 127.0.0.1 that plays a model for the black-box tests: it answers the
// OpenAI Chat Completions or the Anthropic Messages streaming API the way hosted models stream
// (tool-call arguments split across chunks, several calls in one message, usage in a final
// chunk), choosing each answer from how many assistant turns the request's conversation holds.
// It records every request so the test can check what the model was shown. Not part of the build.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One step of the model: tool calls (with object arguments) or a final text. */
export type ModelStep =
  | { readonly text?: string; readonly calls: readonly { name: string; arguments: Record<string, unknown> }[] }
  | { readonly text: string; readonly calls?: undefined };

/** A running model server. */
export interface StreamingModelServer {
  /** For `OPENAI_BASE_URL` (ends in `/v1`) or `ANTHROPIC_BASE_URL` (the origin). */
  readonly baseURL: string;
  /** Request bodies, in arrival order. */
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Splits `text` into `count` pieces of roughly equal length (some may be empty). */
function pieces(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  return Array.from({ length: count }, (_, index) => text.slice(index * size, (index + 1) * size));
}

export function sse(response: ServerResponse, data: unknown, event?: string): void {
  response.write(
    `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
  );
}

function assistantTurns(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string }[]) : [];
  return messages.filter((message) => message.role === 'assistant').length;
}

/** Token counts a server reports for one answer. */
export interface ServedUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

export function streamOpenAI(
  response: ServerResponse,
  step: ModelStep,
  index: number,
  usage: ServedUsage = { input: 100 + index, output: 10 },
): void {
  const id = `chatcmpl-${index}`;
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  sse(response, chunk({ role: 'assistant', content: '' }));
  if (step.text) for (const piece of pieces(step.text, 3)) sse(response, chunk({ content: piece }));
  (step.calls ?? []).forEach((call, callIndex) => {
    const callId = `call_${index}_${callIndex}`;
    sse(
      response,
      chunk({
        tool_calls: [{ index: callIndex, id: callId, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of pieces(JSON.stringify(call.arguments), 3))
      sse(response, chunk({ tool_calls: [{ index: callIndex, function: { arguments: piece } }] }));
  });
  sse(response, chunk({}, step.calls ? 'tool_calls' : 'stop'));
  // include_usage: the last chunk has no choices, only usage.
  sse(response, {
    id,
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'local-model',
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      ...(usage.cacheRead !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cacheRead } } : {}),
    },
  });
  sse(response, '[DONE]');
}

export function streamAnthropic(
  response: ServerResponse,
  step: ModelStep,
  index: number,
  usage: ServedUsage = { input: 100 + index, output: 10 },
): void {
  sse(
    response,
    {
      type: 'message_start',
      message: {
        id: `msg_${index}`,
        type: 'message',
        role: 'assistant',
        model: 'local-model',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Anthropic counts cached tokens apart from input_tokens.
        usage: {
          input_tokens: usage.input - (usage.cacheRead ?? 0) - (usage.cacheWrite ?? 0),
          output_tokens: 1,
          ...(usage.cacheRead !== undefined ? { cache_read_input_tokens: usage.cacheRead } : {}),
          ...(usage.cacheWrite !== undefined ? { cache_creation_input_tokens: usage.cacheWrite } : {}),
        },
      },
    },
    'message_start',
  );
  let block = 0;
  if (step.text) {
    sse(
      response,
      { type: 'content_block_start', index: block, content_block: { type: 'text', text: '' } },
      'content_block_start',
    );
    for (const piece of pieces(step.text, 3))
      sse(
        response,
        { type: 'content_block_delta', index: block, delta: { type: 'text_delta', text: piece } },
        'content_block_delta',
      );
    sse(response, { type: 'content_block_stop', index: block }, 'content_block_stop');
    block += 1;
  }
  (step.calls ?? []).forEach((call, callIndex) => {
    sse(
      response,
      {
        type: 'content_block_start',
        index: block,
        content_block: { type: 'tool_use', id: `toolu_${index}_${callIndex}`, name: call.name, input: {} },
      },
      'content_block_start',
    );
    for (const piece of pieces(JSON.stringify(call.arguments), 3))
      sse(
        response,
        { type: 'content_block_delta', index: block, delta: { type: 'input_json_delta', partial_json: piece } },
        'content_block_delta',
      );
    sse(response, { type: 'content_block_stop', index: block }, 'content_block_stop');
    block += 1;
  });
  sse(
    response,
    {
      type: 'message_delta',
      delta: { stop_reason: step.calls ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output },
    },
    'message_delta',
  );
  sse(response, { type: 'message_stop' }, 'message_stop');
}

/** Answers a request with one step, streamed in the vendor's format, and ends the response. */
export function streamStep(
  format: 'openai' | 'anthropic',
  response: ServerResponse,
  step: ModelStep,
  index: number,
  usage?: ServedUsage,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (format === 'openai') streamOpenAI(response, step, index, usage);
  else streamAnthropic(response, step, index, usage);
  response.end();
}

/** Listens on 127.0.0.1 (a free port); the base URL the vendor's SDK takes, and a close that drops open connections. */
export async function listenOnLoopback(
  server: Server,
  format: 'openai' | 'anthropic',
): Promise<{ baseURL: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: format === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers that depend on the request's `model`. */
export interface ModelServerOptions {
  /** Steps for requests naming this model, instead of the server's `steps`. */
  readonly modelSteps?: Readonly<Record<string, readonly ModelStep[]>>;
  /** Models the server does not know: a request naming one gets the vendor's 404 `model_not_found`. */
  readonly unknownModels?: readonly string[];
}

function refuseModel(response: ServerResponse, format: 'openai' | 'anthropic', model: string): void {
  const message = `The model \`${model}\` does not exist or you do not have access to it.`;
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(
      format === 'openai'
        ? { error: { message, type: 'invalid_request_error', param: null, code: 'model_not_found' } }
        : { type: 'error', error: { type: 'not_found_error', message } },
    ),
  );
}

/**
 * Starts the server. Request `n` (counted by the assistant turns already in its conversation)
 * gets `steps[n]` (or the request model's own steps, see {@link ModelServerOptions}); past the
 * end, a plain "done" text.
 */
export async function startStreamingModelServer(
  format: 'openai' | 'anthropic',
  steps: readonly ModelStep[],
  options: ModelServerOptions = {},
): Promise<StreamingModelServer> {
  const requests: Record<string, unknown>[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      requests.push(body);
      const model = String(body.model);
      if (options.unknownModels?.includes(model)) return refuseModel(response, format, model);
      const index = assistantTurns(body);
      const step = (options.modelSteps?.[model] ?? steps)[index] ?? { text: 'done' };
      streamStep(format, response, step, index);
    });
  });
  return { ...(await listenOnLoopback(server, format)), requests };
}
