// A real HTTP server on 127.0.0.1 that plays a model speaking the OpenAI Chat Completions
// format, streamed (or whole, when the request does not ask for a stream): each request is answered with the next scripted step (text, or tool calls
// whose arguments arrive split across chunks), and every request body is kept so a test can
// check what the model was shown. For adapter tests that drive a real framework package.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: tool calls (arguments as objects), or a final text. */
export type ChatStep =
  | { readonly text?: string; readonly calls: readonly { name: string; arguments: Record<string, unknown> }[] }
  | { readonly text: string; readonly calls?: undefined };

/** A running scripted server. */
export interface ChatCompletionsServer {
  /** The base URL an OpenAI-compatible client takes (ends in `/v1`). */
  readonly baseURL: string;
  /** Request bodies in arrival order. */
  readonly requests: Record<string, unknown>[];
  /** The tool results (role `tool` messages) of the latest request, by tool call id. */
  toolResults(): Map<string, string>;
  close(): Promise<void>;
}

function send(response: ServerResponse, data: unknown): void {
  response.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

function split(text: string): string[] {
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

function stream(response: ServerResponse, step: ChatStep, index: number): void {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: `chatcmpl-${index}`,
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send(response, chunk({ role: 'assistant', content: '' }));
  if (step.text) for (const piece of split(step.text)) send(response, chunk({ content: piece }));
  (step.calls ?? []).forEach((call, callIndex) => {
    const id = `call_${index}_${callIndex}`;
    send(
      response,
      chunk({ tool_calls: [{ index: callIndex, id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of split(JSON.stringify(call.arguments)))
      send(response, chunk({ tool_calls: [{ index: callIndex, function: { arguments: piece } }] }));
  });
  send(response, chunk({}, step.calls ? 'tool_calls' : 'stop'));
  send(response, {
    id: `chatcmpl-${index}`,
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'local-model',
    choices: [],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  });
  send(response, '[DONE]');
  response.end();
}

/** The same answer as one JSON completion, for a client that does not ask for a stream. */
function answerWhole(response: ServerResponse, step: ChatStep, index: number): void {
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
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    }),
  );
}

/**
 * Starts the server on 127.0.0.1 (a free port). Request N is answered with `steps[N]`; a request
 * past the script is answered 500 with a message, so a test that asks more than it scripted fails.
 */
export async function startChatCompletionsServer(steps: readonly ChatStep[]): Promise<ChatCompletionsServer> {
  const requests: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const index = requests.length;
      requests.push(body);
      const step = steps[index];
      if (!step) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { message: `the script has ${steps.length} steps; request ${index + 1} has none` } }),
        );
        return;
      }
      if (body.stream === true) stream(response, step, index);
      else answerWhole(response, step, index);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    toolResults() {
      const messages = (requests.at(-1)?.messages ?? []) as {
        role?: string;
        tool_call_id?: string;
        content?: unknown;
      }[];
      return new Map(
        messages
          .filter((message) => message.role === 'tool' && typeof message.tool_call_id === 'string')
          .map((message) => [
            message.tool_call_id!,
            typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
          ]),
      );
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
