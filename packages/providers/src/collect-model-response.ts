import type { ModelToolCall } from './model-message.js';
import type { ModelFinishReason, ModelResponse, ModelStreamEvent, ModelUsage } from './model-stream.js';
import { PROVIDER_ERROR_CODES, providerError } from './provider-error.js';

/** Options of {@link collectModelResponse}. */
export interface CollectModelResponseOptions {
  /** Receives each piece of text as it arrives (for a live transcript). */
  readonly onTextDelta?: (text: string) => void;
}

/**
 * Reads a whole stream into one {@link ModelResponse}. A stream that ends without a `finish`
 * event is a `provider_protocol_error`; errors the stream throws pass through unchanged.
 */
export async function collectModelResponse(
  stream: AsyncIterable<ModelStreamEvent>,
  options: CollectModelResponseOptions = {},
): Promise<ModelResponse> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: ModelUsage | undefined;
  let finishReason: ModelFinishReason | undefined;
  let model: string | undefined;
  for await (const event of stream) {
    if (event.type === 'text-delta') {
      text += event.text;
      options.onTextDelta?.(event.text);
    } else if (event.type === 'tool-call') toolCalls.push(event.toolCall);
    else if (event.type === 'usage') usage = event.usage;
    else {
      finishReason = event.reason;
      model = event.model;
    }
  }
  if (finishReason === undefined) {
    throw providerError('provider', PROVIDER_ERROR_CODES.protocolError, 'the stream ended without a finish event');
  }
  return { text, toolCalls, ...(usage ? { usage } : {}), finishReason, ...(model ? { model } : {}) };
}
