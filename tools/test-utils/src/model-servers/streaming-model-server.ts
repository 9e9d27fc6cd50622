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
  /** The tool results (role `tool` messages, Chat Completions format) of the latest request, by tool call id. */
  toolResults(): Map<string, string>;
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

/** The same answer as one Chat Completions JSON body, for a client that does not ask for a stream. */
export function answerOpenAIWhole(response: ServerResponse, step: ModelStep, index: number): void {
  const calls = (step.calls ?? []).map((call, callIndex) => ({
    id: `call_${index}_${callIndex}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      created: 1_764_000_000,
      model: 'local-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: step.text ?? null,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: { prompt_tokens: 100 + index, completion_tokens: 10, total_tokens: 110 + index },
    }),
  );
}

/** The role `tool` messages of a Chat Completions request body, by tool call id. */
export function toolResultsOf(body: Record<string, unknown> | undefined): Map<string, string> {
  const messages = (Array.isArray(body?.messages) ? body.messages : []) as {
    role?: string;
    tool_call_id?: string;
    content?: unknown;
  }[];
  return new Map(
    messages
      .filter((message) => message.role === 'tool' && typeof message.tool_call_id === 'string')
      .map((message) => [
        message.tool_call_id as string,
        typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
      ]),
  );
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
  /**
   * How a request finds its step: `assistant-turns` (the default) counts the assistant turns its
   * conversation holds; `requests` takes the requests in arrival order and answers a request past
   * the script with a 500, so a test that asks more than it scripted fails.
   */
  readonly script?: 'assistant-turns' | 'requests';
}

function refusePastScript(response: ServerResponse, length: number, index: number): void {
  response.writeHead(500, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message: `the script has ${length} steps; request ${index + 1} has none` } }));
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
 * Starts the server. Request `n` (counted by the assistant turns already in its conversation, or
 * by arrival, see {@link ModelServerOptions.script}) gets `steps[n]` (or the request model's own
 * steps); past the end of a turn-counted script, a plain "done" text. An OpenAI request that does
 * not ask for a stream gets the same answer as one JSON completion.
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
      const script = options.modelSteps?.[model] ?? steps;
      const byArrival = options.script === 'requests';
      const index = byArrival ? requests.length - 1 : assistantTurns(body);
      const step = script[index] ?? (byArrival ? undefined : { text: 'done' });
      if (!step) return refusePastScript(response, script.length, index);
      if (format === 'openai' && body.stream !== true) answerOpenAIWhole(response, step, index);
      else streamStep(format, response, step, index);
    });
  });
  return {
    ...(await listenOnLoopback(server, format)),
    requests,
    toolResults: () => toolResultsOf(requests.at(-1)),
  };
}
