// A real HTTP server on 127.0.0.1 that plays a model with a limited context window, for the
// long-session tests and the compaction bench: it counts each request's tokens with a real BPE
// tokenizer (js-tiktoken, o200k_base), answers a request over the window with the vendor's 400
// (OpenAI `context_length_exceeded`, Anthropic "prompt is too long"), computes Anthropic prompt
// cache reads and writes from the request's `cache_control` breakpoints, and plays `steps` one
// per accepted request (a request without tools is a summary request: it gets a summary text).
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, streamStep, type ModelStep } from './streaming-model-server.js';
import { countTokens } from './token-count.js';

/** What the server saw of one request. */
export interface WindowedRequest {
  readonly body: Record<string, unknown>;
  readonly tokens: number;
  readonly rejected: boolean;
  readonly summary: boolean;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** A running server. */
export interface WindowedModelServer {
  readonly baseURL: string;
  readonly requests: WindowedRequest[];
  close(): Promise<void>;
}

const counted = new Map<string, number>();

/** Tokens of `text`, counted once per distinct text (requests repeat their prefix). */
function tokensOf(text: string): number {
  let tokens = counted.get(text);
  if (tokens === undefined) {
    tokens = countTokens(text);
    counted.set(text, tokens);
  }
  return tokens;
}

/** The request as a list of blocks in prompt order (tools, system, message blocks), each with its tokens. */
function blocksOf(body: Record<string, unknown>): { key: string; tokens: number; breakpoint: boolean }[] {
  const blocks: { key: string; tokens: number; breakpoint: boolean }[] = [];
  const add = (value: unknown, role: string) => {
    const breakpoint = typeof value === 'object' && value !== null && 'cache_control' in value;
    // A breakpoint marks where to cache; it is not content: the same block with or without one
    // is the same prefix (a request reads what an earlier one cached at its breakpoint).
    const content = breakpoint ? { ...(value as Record<string, unknown>), cache_control: undefined } : value;
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    // Four tokens of framing per block, as the vendors add role and block markers.
    blocks.push({ key: `${role}:${text}`, tokens: tokensOf(text) + 4, breakpoint });
  };
  for (const tool of (body.tools ?? []) as unknown[]) add(tool, 'tool');
  if (typeof body.system === 'string') add(body.system, 'system');
  else for (const block of (body.system ?? []) as unknown[]) add(block, 'system');
  for (const message of (body.messages ?? []) as { role: string; content: unknown }[]) {
    if (Array.isArray(message.content)) for (const block of message.content) add(block, message.role);
    else add({ ...message }, message.role);
  }
  return blocks;
}

function tooLong(response: ServerResponse, format: 'openai' | 'anthropic', tokens: number, window: number): void {
  response.writeHead(400, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify(
      format === 'openai'
        ? {
            error: {
              message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
              type: 'invalid_request_error',
              param: 'messages',
              code: 'context_length_exceeded',
            },
          }
        : {
            type: 'error',
            error: {
              type: 'invalid_request_error',
              message: `prompt is too long: ${tokens} tokens > ${window} maximum`,
            },
          },
    ),
  );
}

/** Starts the server with a window of `window` tokens (input plus the request's output limit). */
export async function startWindowedModelServer(
  format: 'openai' | 'anthropic',
  steps: readonly ModelStep[] | ((index: number) => ModelStep),
  window: number,
): Promise<WindowedModelServer> {
  const requests: WindowedRequest[] = [];
  const cache = new Set<string>();
  let played = 0;
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const blocks = blocksOf(body);
      const tokens = blocks.reduce((sum, block) => sum + block.tokens, 0);
      const summary = !Array.isArray(body.tools) || body.tools.length === 0;
      if (tokens > window) {
        requests.push({ body, tokens, rejected: true, summary, cacheRead: 0, cacheWrite: 0 });
        return tooLong(response, format, tokens, window);
      }
      // The cache holds prefixes ending at a breakpoint; a request reads the longest stored
      // prefix that ends at one of its block boundaries and writes the prefixes at its own breakpoints.
      let cacheRead = 0;
      let cacheWrite = 0;
      if (format === 'anthropic') {
        const hash = createHash('sha256');
        let prefix = 0;
        let lastBreakpoint = 0;
        const written: string[] = [];
        for (const block of blocks) {
          hash.update(block.key);
          prefix += block.tokens;
          const digest = hash.copy().digest('hex');
          if (cache.has(digest)) cacheRead = prefix;
          if (block.breakpoint) {
            written.push(digest);
            lastBreakpoint = prefix;
          }
        }
        cacheWrite = Math.max(0, lastBreakpoint - cacheRead);
        for (const digest of written) cache.add(digest);
      }
      requests.push({ body, tokens, rejected: false, summary, cacheRead, cacheWrite });
      const step: ModelStep = summary
        ? { text: `Summary: the task so far, ${requests.length} requests in; files read and decisions kept.` }
        : typeof steps === 'function'
          ? steps(played)
          : (steps[played] ?? { text: 'done' });
      const index = summary ? requests.length : (played += 1) - 1;
      const usage = { input: tokens, output: 20, ...(format === 'anthropic' ? { cacheRead, cacheWrite } : {}) };
      streamStep(format, response, step, index, usage);
    });
  });
  return { ...(await listenOnLoopback(server, format)), requests };
}
