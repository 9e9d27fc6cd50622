import type { ModelToolSchema } from '@clawsmith/tool-protocol';
import type { ModelMessage, ModelToolCall } from './model-message.js';

/** One request to a model. */
export interface ModelRequest {
  /** Identifies this request in logs and events; the caller chooses it. */
  readonly requestId: string;
  /** The conversation so far, oldest first. */
  readonly messages: readonly ModelMessage[];
  /** The tools the model may call in this request (may be empty). */
  readonly tools: readonly ModelToolSchema[];
  /** Aborting it ends the stream with a `finish` event of reason `cancelled`, never an exception. */
  readonly signal?: AbortSignal;
  /** A system prompt placed before any system messages. */
  readonly system?: string;
  /** The most tokens the model may write; the adapter's default applies when absent. */
  readonly maxTokens?: number;
  /** A stable key grouping requests that share a prefix (core passes the session id); sent as OpenAI's `prompt_cache_key`, ignored where the API takes none. */
  readonly cacheKey?: string;
}

/** Tokens a request consumed, as the vendor reported them. */
export interface ModelUsage {
  /** Tokens read: the prompt, including cached prompt tokens where the vendor counts them apart. */
  readonly inputTokens: number;
  /** Tokens written. */
  readonly outputTokens: number;
  /** Of `inputTokens`, those served from the vendor's prompt cache, when it says (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  readonly cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the vendor's prompt cache, when it says (Anthropic `cache_creation_input_tokens`). */
  readonly cacheWriteTokens?: number;
}

/**
 * Why a response ended.
 * - `stop`: the model finished its answer.
 * - `tool-calls`: the model is waiting for the results of its tool calls.
 * - `length`: the token limit cut the answer short.
 * - `error`: the vendor ended the answer itself (a content filter, a refusal).
 * - `cancelled`: the request's abort signal fired; what came before is partial.
 */
export type ModelFinishReason = 'stop' | 'tool-calls' | 'length' | 'error' | 'cancelled';

/** A piece of the model's text, in order. */
export interface ModelTextDeltaEvent {
  /** Discriminant. */
  readonly type: 'text-delta';
  /** The next piece of text. */
  readonly text: string;
}

/** One complete tool call (its arguments fully received). */
export interface ModelToolCallEvent {
  /** Discriminant. */
  readonly type: 'tool-call';
  /** The call. */
  readonly toolCall: ModelToolCall;
}

/** The tokens the request consumed; at most once per stream, before `finish`. */
export interface ModelUsageEvent {
  /** Discriminant. */
  readonly type: 'usage';
  /** The counts. */
  readonly usage: ModelUsage;
}

/** The last event of every stream that does not throw. */
export interface ModelFinishEvent {
  /** Discriminant. */
  readonly type: 'finish';
  /** Why the response ended. */
  readonly reason: ModelFinishReason;
  /**
   * The model that answered, as the vendor's response names it, when it names one (a dated
   * snapshot or a router's pick may differ from the model asked for).
   */
  readonly model?: string;
}

/** One event of a streamed model response. */
export type ModelStreamEvent = ModelTextDeltaEvent | ModelToolCallEvent | ModelUsageEvent | ModelFinishEvent;

/**
 * A model behind some API. `stream` yields text deltas and complete tool calls as they arrive,
 * then usage (when the vendor reports it) and exactly one `finish` event. Failures are thrown as
 * `ProviderError`s whose `retryable` says whether the same request can succeed later.
 */
export interface Provider {
  /** The adapter's name: `openai`, `anthropic`, `scripted`. */
  readonly name: string;
  /** The model the adapter asks for. */
  readonly model: string;
  /**
   * The context window the provider knows its model has, in tokens, when it knows better than a
   * table of model names (a scripted model has none: it replays its answers whatever it is sent).
   */
  readonly contextWindow?: number;
  /** Sends `request` and streams the answer. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

/** A whole model response, gathered from a stream by `collectModelResponse`. */
export interface ModelResponse {
  /** All text deltas joined. */
  readonly text: string;
  /** Every tool call, in order. */
  readonly toolCalls: readonly ModelToolCall[];
  /** The usage, when the stream reported it. */
  readonly usage?: ModelUsage;
  /** Why the response ended. */
  readonly finishReason: ModelFinishReason;
  /** The model that answered, when the stream's `finish` named it. */
  readonly model?: string;
}
