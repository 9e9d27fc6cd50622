import type OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { type ProviderEnvironment, resolveCredentials } from './api-key.js';
import type { ModelToolCall } from './model-message.js';
import type { ModelFinishReason, ModelRequest, ModelStreamEvent, ModelUsage, Provider } from './model-stream.js';
import { PROVIDER_ERROR_CODES, providerError } from './provider-error.js';
import { mapSdkError, type SdkErrorClasses } from './sdk-error.js';
import { toOpenAIMessages, toOpenAITools } from './openai-messages.js';

/** Options of {@link createOpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** The model, for example `gpt-4.1` or a local model name such as `qwen3:8b`. */
  readonly model: string;
  /** The key; default `OPENAI_API_KEY`. A local `baseURL` needs none. */
  readonly apiKey?: string;
  /** The API root, for example `http://127.0.0.1:11434/v1` for Ollama; default `OPENAI_BASE_URL`, then OpenAI's. */
  readonly baseURL?: string;
  /** Retries of 408, 409, 429 and 5xx answers and failed connections (the SDK's backoff, honouring `retry-after`). Default 2. */
  readonly maxRetries?: number;
  /** Milliseconds to wait for each attempt. Default the SDK's (10 minutes). */
  readonly timeout?: number;
  /** Which field carries `ModelRequest.maxTokens`; some older local servers know only `max_tokens`. Default `max_completion_tokens`. */
  readonly maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /** Where to read the variables; default `process.env`. */
  readonly environment?: ProviderEnvironment;
}

const NAME = 'openai';

interface PendingToolCall {
  id: string | undefined;
  name: string;
  argumentsText: string;
}

function finishReasonOf(reason: string): ModelFinishReason {
  if (reason === 'stop') return 'stop';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool-calls';
  if (reason === 'length') return 'length';
  return 'error';
}

/** Gathers the tool-call fragments of a stream, by index, into whole calls. */
class ToolCallAccumulator {
  private readonly calls: PendingToolCall[] = [];
  private readonly slotOfIndex = new Map<number, number>();

  add(fragments: ChatCompletionChunk.Choice.Delta.ToolCall[]): void {
    for (const fragment of fragments) {
      let slot = this.slotOfIndex.get(fragment.index);
      const existing = slot === undefined ? undefined : this.calls[slot];
      // Some local servers send every whole call at index 0: a new id at a used index is a new call.
      if (existing === undefined || (fragment.id && existing.id && fragment.id !== existing.id)) {
        slot = this.calls.push({ id: undefined, name: '', argumentsText: '' }) - 1;
        this.slotOfIndex.set(fragment.index, slot);
      }
      const call = this.calls[slot!]!;
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.argumentsText += fragment.function.arguments;
    }
  }

  finish(requestId: string): ModelToolCall[] {
    return this.calls.map((call, index) => {
      if (call.name === '') {
        throw providerError(
          NAME,
          PROVIDER_ERROR_CODES.protocolError,
          `tool call ${index} of the stream has no function name`,
        );
      }
      return { id: call.id ?? `call_${requestId}_${index}`, name: call.name, argumentsText: call.argumentsText };
    });
  }
}

/**
 * A provider on the official `openai` SDK's Chat Completions API with tools and streaming. It
 * serves OpenAI and every server that speaks the same API (Ollama, vLLM, llama.cpp, LM Studio).
 * Throws `provider_missing_api_key` at once when no key is found and the base URL is not local.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): Provider {
  const { apiKey, baseURL } = resolveCredentials({
    provider: NAME,
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    keyVariable: 'OPENAI_API_KEY',
    baseURLVariable: 'OPENAI_BASE_URL',
    environment: options.environment ?? process.env,
  });
  // The SDK (some 150 modules) loads on the first request, not when the provider is made: a
  // command that never asks the model (a listing, an undo) starts without paying for it.
  let connection: Promise<{ client: OpenAI; errors: SdkErrorClasses }> | undefined;
  const connect = () =>
    (connection ??= import('openai').then((sdk) => ({
      client: new sdk.OpenAI({
        apiKey,
        ...(baseURL ? { baseURL } : {}),
        maxRetries: options.maxRetries ?? 2,
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      }),
      errors: sdk,
    })));
  const maxTokensField = options.maxTokensField ?? 'max_completion_tokens';

  async function* stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const signal = request.signal;
    if (signal?.aborted) {
      yield { type: 'finish', reason: 'cancelled' };
      return;
    }
    // The SDK leaves a listener on the signal it is given after each request: give it one of its
    // own per request, so a turn of many steps does not pile listeners on the turn's signal.
    const own = new AbortController();
    const forward = () => own.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    try {
      yield* streamWith(request, signal ? own.signal : undefined);
    } finally {
      signal?.removeEventListener('abort', forward);
    }
  }

  async function* streamWith(request: ModelRequest, signal: AbortSignal | undefined): AsyncGenerator<ModelStreamEvent> {
    const { client, errors } = await connect();
    const toolCalls = new ToolCallAccumulator();
    let finishReason: ModelFinishReason | undefined;
    let usage: ModelUsage | undefined;
    let answeredBy: string | undefined;
    try {
      const chunks = await client.chat.completions.create(
        {
          model: options.model,
          messages: toOpenAIMessages(request.messages, request.system),
          ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
          ...(request.maxTokens !== undefined ? { [maxTokensField]: request.maxTokens } : {}),
          ...(request.cacheKey !== undefined ? { prompt_cache_key: request.cacheKey } : {}),
          stream: true,
          stream_options: { include_usage: true },
        },
        signal ? { signal } : {},
      );
      for await (const chunk of chunks) {
        if (chunk.model) answeredBy = chunk.model;
        if (chunk.usage) {
          const cached = chunk.usage.prompt_tokens_details?.cached_tokens;
          usage = {
            inputTokens: chunk.usage.prompt_tokens,
            outputTokens: chunk.usage.completion_tokens,
            ...(typeof cached === 'number' ? { cacheReadTokens: cached } : {}),
          };
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.delta?.content) yield { type: 'text-delta', text: choice.delta.content };
        if (choice.delta?.tool_calls) toolCalls.add(choice.delta.tool_calls);
        if (choice.finish_reason) finishReason = finishReasonOf(choice.finish_reason);
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
    if (finishReason === undefined) {
      throw providerError(
        NAME,
        PROVIDER_ERROR_CODES.unavailable,
        'the stream ended before the model finished (no finish_reason)',
      );
    }
    const calls = toolCalls.finish(request.requestId);
    for (const toolCall of calls) yield { type: 'tool-call', toolCall };
    if (usage) yield { type: 'usage', usage };
    yield {
      type: 'finish',
      reason: calls.length > 0 && finishReason === 'stop' ? 'tool-calls' : finishReason,
      ...(answeredBy ? { model: answeredBy } : {}),
    };
  }

  return { name: NAME, model: options.model, stream };
}
