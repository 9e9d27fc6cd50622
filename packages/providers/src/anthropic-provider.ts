import type Anthropic from '@anthropic-ai/sdk';
import { type ProviderEnvironment, resolveCredentials } from './api-key.js';
import { withCacheBreakpoints } from './anthropic-cache.js';
import { toAnthropicConversation, toAnthropicTools } from './anthropic-messages.js';
import type { ModelFinishReason, ModelRequest, ModelStreamEvent, Provider } from './model-stream.js';
import { PROVIDER_ERROR_CODES, providerError } from './provider-error.js';
import { mapSdkError, type SdkErrorClasses } from './sdk-error.js';

/** Options of {@link createAnthropicProvider}. */
export interface AnthropicProviderOptions {
  /** The model, for example `claude-sonnet-4-5`. */
  readonly model: string;
  /** The key; default `ANTHROPIC_API_KEY`. A local `baseURL` needs none. */
  readonly apiKey?: string;
  /** The API root; default `ANTHROPIC_BASE_URL`, then Anthropic's. */
  readonly baseURL?: string;
  /** `max_tokens` when the request sets none (the Messages API requires one). Default 4096. */
  readonly maxTokens?: number;
  /** Retries of 408, 409, 429 and 5xx answers and failed connections (the SDK's backoff, honouring `retry-after`). Default 2. */
  readonly maxRetries?: number;
  /** Milliseconds to wait for each attempt. Default the SDK's. */
  readonly timeout?: number;
  /** Where to read the variables; default `process.env`. */
  readonly environment?: ProviderEnvironment;
}

const NAME = 'anthropic';

function finishReasonOf(reason: string | null | undefined): ModelFinishReason {
  if (reason === 'tool_use') return 'tool-calls';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  if (reason === 'refusal') return 'error';
  return 'stop';
}

interface OpenBlock {
  readonly kind: 'text' | 'tool_use' | 'other';
  readonly id: string;
  readonly name: string;
  readonly initialInput: unknown;
  argumentsText: string;
}

/**
 * A provider on the official `@anthropic-ai/sdk`: the Messages API, streamed over SSE, with
 * `tool_use` and `tool_result` blocks and the system prompt apart. Throws
 * `provider_missing_api_key` at once when no key is found and the base URL is not local.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const { apiKey, baseURL } = resolveCredentials({
    provider: NAME,
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    keyVariable: 'ANTHROPIC_API_KEY',
    baseURLVariable: 'ANTHROPIC_BASE_URL',
    environment: options.environment ?? process.env,
  });
  // The SDK (some 280 modules) loads on the first request, not when the provider is made: a
  // command that never asks the model (a listing, an undo) starts without paying for it.
  let connection: Promise<{ client: Anthropic; errors: SdkErrorClasses }> | undefined;
  const connect = () =>
    (connection ??= import('@anthropic-ai/sdk').then((sdk) => ({
      client: new sdk.Anthropic({
        apiKey,
        ...(baseURL ? { baseURL } : {}),
        maxRetries: options.maxRetries ?? 2,
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      }),
      errors: sdk,
    })));
  const defaultMaxTokens = options.maxTokens ?? 4096;

  async function* stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const signal = request.signal;
    if (signal?.aborted) {
      yield { type: 'finish', reason: 'cancelled' };
      return;
    }
    const { client, errors } = await connect();
    const conversation = toAnthropicConversation(request.messages, request.system);
    const cached = withCacheBreakpoints(conversation.system, conversation.messages, toAnthropicTools(request.tools));
    const blocks = new Map<number, OpenBlock>();
    let inputTokens = 0;
    let outputTokens = 0;
    let cache: { cacheReadTokens?: number; cacheWriteTokens?: number } = {};
    let stopReason: string | null | undefined;
    let stopped = false;
    let answeredBy: string | undefined;
    try {
      const events = await client.messages.create(
        {
          model: options.model,
          max_tokens: request.maxTokens ?? defaultMaxTokens,
          ...(cached.system !== undefined ? { system: cached.system } : {}),
          messages: cached.messages,
          ...(cached.tools.length > 0 ? { tools: cached.tools } : {}),
          stream: true,
        },
        signal ? { signal } : {},
      );
      for await (const event of events) {
        switch (event.type) {
          case 'message_start': {
            answeredBy = event.message.model || answeredBy;
            const usage = event.message.usage;
            inputTokens =
              usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
            outputTokens = usage.output_tokens;
            cache = {
              ...(typeof usage.cache_read_input_tokens === 'number'
                ? { cacheReadTokens: usage.cache_read_input_tokens }
                : {}),
              ...(typeof usage.cache_creation_input_tokens === 'number'
                ? { cacheWriteTokens: usage.cache_creation_input_tokens }
                : {}),
            };
            break;
          }
          case 'content_block_start': {
            const block = event.content_block;
            if (block.type === 'text') {
              blocks.set(event.index, { kind: 'text', id: '', name: '', initialInput: undefined, argumentsText: '' });
              if (block.text) yield { type: 'text-delta', text: block.text };
            } else if (block.type === 'tool_use') {
              blocks.set(event.index, {
                kind: 'tool_use',
                id: block.id,
                name: block.name,
                initialInput: block.input,
                argumentsText: '',
              });
            } else {
              blocks.set(event.index, { kind: 'other', id: '', name: '', initialInput: undefined, argumentsText: '' });
            }
            break;
          }
          case 'content_block_delta': {
            const block = blocks.get(event.index);
            if (block === undefined)
              throw providerError(
                NAME,
                PROVIDER_ERROR_CODES.protocolError,
                `a delta arrived for content block ${event.index}, which never started`,
              );
            if (event.delta.type === 'text_delta' && event.delta.text)
              yield { type: 'text-delta', text: event.delta.text };
            else if (event.delta.type === 'input_json_delta') block.argumentsText += event.delta.partial_json;
            break;
          }
          case 'content_block_stop': {
            const block = blocks.get(event.index);
            if (block === undefined)
              throw providerError(
                NAME,
                PROVIDER_ERROR_CODES.protocolError,
                `content block ${event.index} stopped without starting`,
              );
            if (block.kind === 'tool_use') {
              // A tool without input streams no delta: its (empty) input came with the start.
              const argumentsText =
                block.argumentsText === '' ? JSON.stringify(block.initialInput ?? {}) : block.argumentsText;
              yield { type: 'tool-call', toolCall: { id: block.id, name: block.name, argumentsText } };
            }
            blocks.delete(event.index);
            break;
          }
          case 'message_delta':
            stopReason = event.delta.stop_reason ?? stopReason;
            outputTokens = event.usage.output_tokens ?? outputTokens;
            break;
          case 'message_stop':
            stopped = true;
            break;
        }
      }
    } catch (error) {
      if (signal?.aborted) {
        yield { type: 'finish', reason: 'cancelled' };
        return;
      }
      throw mapSdkError(NAME, error, errors);
    }
    // The SDK ends the iteration quietly when the signal aborts it mid-stream.
    if (signal?.aborted) {
      yield { type: 'finish', reason: 'cancelled' };
      return;
    }
    if (!stopped) throw providerError(NAME, PROVIDER_ERROR_CODES.unavailable, 'the stream ended before message_stop');
    yield { type: 'usage', usage: { inputTokens, outputTokens, ...cache } };
    yield { type: 'finish', reason: finishReasonOf(stopReason), ...(answeredBy ? { model: answeredBy } : {}) };
  }

  return { name: NAME, model: options.model, stream };
}
