import type { ModelMessage } from '@clawsmith/providers';
import type { ModelToolSchema } from '@clawsmith/tool-protocol';

/** Bytes per token before any usage came back: low, so the first estimates err on the large side. */
const INITIAL_BYTES_PER_TOKEN = 3;
/** Per-message framing the vendors add (role markers, ids). */
const MESSAGE_OVERHEAD_TOKENS = 6;

const messageBytes = new WeakMap<object, number>();

function bytesOf(message: ModelMessage): number {
  let bytes = messageBytes.get(message);
  if (bytes !== undefined) return bytes;
  switch (message.role) {
    case 'system':
    case 'user':
      bytes = Buffer.byteLength(message.text);
      break;
    case 'assistant':
      bytes = Buffer.byteLength(message.text);
      for (const call of message.toolCalls)
        bytes += Buffer.byteLength(call.argumentsText) + call.name.length + call.id.length;
      break;
    case 'tool':
      bytes = Buffer.byteLength(message.content) + message.toolCallId.length + 32;
      break;
  }
  messageBytes.set(message, bytes);
  return bytes;
}

/** What a request sends, as far as its size goes. */
export interface RequestShape {
  readonly system?: string | undefined;
  readonly tools: readonly ModelToolSchema[];
  readonly messages: readonly ModelMessage[];
}

/**
 * Estimates a request's input tokens from its bytes, with a ratio calibrated by the provider's
 * reported usage of earlier requests (no tokenizer: loading a BPE table costs seconds on a busy
 * machine, and the calibrated ratio is within a few per cent for one conversation).
 */
export class TokenEstimator {
  #bytesPerToken = INITIAL_BYTES_PER_TOKEN;
  readonly #toolBytes = new WeakMap<readonly ModelToolSchema[], number>();

  /** The ratio in use. */
  get bytesPerToken(): number {
    return this.#bytesPerToken;
  }

  /** The bytes a request carries. */
  bytes(request: RequestShape): number {
    let tools = this.#toolBytes.get(request.tools);
    if (tools === undefined) {
      tools = Buffer.byteLength(JSON.stringify(request.tools));
      this.#toolBytes.set(request.tools, tools);
    }
    let bytes = tools + (request.system ? Buffer.byteLength(request.system) : 0);
    for (const message of request.messages) bytes += bytesOf(message);
    return bytes;
  }

  /** Estimated tokens of `request`. */
  estimate(request: RequestShape): number {
    return this.tokensOf(this.bytes(request), request.messages.length);
  }

  /** Tokens of `bytes` over `messageCount` messages, at the calibrated ratio. */
  tokensOf(bytes: number, messageCount: number): number {
    return Math.ceil(bytes / this.#bytesPerToken) + messageCount * MESSAGE_OVERHEAD_TOKENS;
  }

  /** Learns from a request of `bytes` over `messageCount` messages that the provider counted `inputTokens`. */
  calibrate(bytes: number, messageCount: number, inputTokens: number): void {
    const contentTokens = inputTokens - messageCount * MESSAGE_OVERHEAD_TOKENS;
    if (contentTokens < 64 || bytes < 256) return;
    this.#bytesPerToken = Math.min(8, Math.max(1, bytes / contentTokens));
  }

  /** After the provider refused a request of `estimated` tokens as longer than `window`: count more per byte. */
  learnOverflow(estimated: number, window: number): void {
    if (estimated >= window) this.#bytesPerToken = Math.max(1, this.#bytesPerToken * 0.8);
    else this.#bytesPerToken = Math.max(1, (this.#bytesPerToken * estimated) / (window * 1.1));
  }
}
