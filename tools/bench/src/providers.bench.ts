// Benchmarks the provider adapters' streaming overhead against a local SSE server (a raw fetch
// that splits and parses the same events is the reference) and the script parser against JSON.parse.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  collectModelResponse,
  createAnthropicProvider,
  createOpenAIProvider,
  parseModelScript,
} from '@clawsmith/providers';
import { measure, report } from './measure.js';

const TEXT_CHUNKS = 2_000;
const TOOL_CALLS = 20;

function openAIBody(): string {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  let body = '';
  for (let index = 0; index < TEXT_CHUNKS; index += 1) body += chunk({ content: `word${index} ` });
  for (let index = 0; index < TOOL_CALLS; index += 1) {
    body += chunk({
      tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: 'read_file', arguments: '' } }],
    });
    for (const part of ['{"path": ', `"src/file-${index}.ts"`, '}'])
      body += chunk({ tool_calls: [{ index, function: { arguments: part } }] });
  }
  body += chunk({}, 'tool_calls');
  body += `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })}\n\n`;
  return `${body}data: [DONE]\n\n`;
}

function anthropicBody(): string {
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let body = event('message_start', {
    message: {
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [],
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
  body += event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  for (let index = 0; index < TEXT_CHUNKS; index += 1)
    body += event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: `word${index} ` } });
  body += event('content_block_stop', { index: 0 });
  for (let index = 1; index <= TOOL_CALLS; index += 1) {
    body += event('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: `toolu_${index}`, name: 'read_file', input: {} },
    });
    for (const part of ['{"path": ', `"src/file-${index}.ts"`, '}'])
      body += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
    body += event('content_block_stop', { index });
  }
  body += event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } });
  return body + event('message_stop', {});
}

const bodies = { openai: openAIBody(), anthropic: anthropicBody() };
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(request.url?.endsWith('/messages') ? bodies.anthropic : bodies.openai);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function rawFetch(path: string): Promise<number> {
  const response = await fetch(`${baseURL}${path}`, { method: 'POST', body: '{}' });
  const text = await response.text();
  let events = 0;
  for (const block of text.split('\n\n')) {
    const data = block.split('\n').find((line) => line.startsWith('data: '));
    if (data && data !== 'data: [DONE]') {
      JSON.parse(data.slice(6));
      events += 1;
    }
  }
  return events;
}

const request = { requestId: 'bench', messages: [{ role: 'user' as const, text: 'go' }], tools: [] };
const openai = createOpenAIProvider({ model: 'm', apiKey: 'k', baseURL: `${baseURL}/v1` });
const anthropic = createAnthropicProvider({ model: 'm', apiKey: 'k', baseURL });
const check = await collectModelResponse(openai.stream(request));
if (check.toolCalls.length !== TOOL_CALLS) throw new Error('openai bench stream did not parse');
if ((await collectModelResponse(anthropic.stream(request))).toolCalls.length !== TOOL_CALLS)
  throw new Error('anthropic bench stream did not parse');

const label = `${TEXT_CHUNKS} text + ${TOOL_CALLS} tool-call events`;
const reference = await measure(
  `raw fetch + JSON.parse (${label}, openai body)`,
  () => rawFetch('/v1/chat/completions'),
  20,
);
const openaiTiming = await measure(
  'openai adapter, collectModelResponse',
  () => collectModelResponse(openai.stream(request)),
  20,
);
const anthropicReference = await measure('raw fetch + JSON.parse (anthropic body)', () => rawFetch('/v1/messages'), 20);
const anthropicTiming = await measure(
  'anthropic adapter, collectModelResponse',
  () => collectModelResponse(anthropic.stream(request)),
  20,
);
report('streaming a response from a local server', reference, [openaiTiming, anthropicReference, anthropicTiming]);
server.close();

const script = JSON.stringify({
  responses: Array.from({ length: 1_000 }, (_, index) => ({
    text: `Step ${index}`,
    toolCalls: [
      {
        id: `call_${index}`,
        name: 'edit_file',
        arguments: { path: `src/file-${index}.ts`, old: 'a'.repeat(100), new: 'b'.repeat(100) },
      },
    ],
  })),
});
const parseReference = await measure(
  `JSON.parse (${(script.length / 1024).toFixed(0)} KiB, 1,000 responses)`,
  () => JSON.parse(script),
  30,
);
const parseTiming = await measure('parseModelScript (JSON.parse + zod validation)', () => parseModelScript(script), 30);
report('script parsing', parseReference, [parseTiming]);
