import type { ToolResultMetadata } from '@clawsmith/tool-protocol';

/**
 * One tool call the model asked for. `argumentsText` is the raw text the model wrote, never
 * parsed here: the caller must see malformed JSON to answer it with `invalid_json`.
 */
export interface ModelToolCall {
  /** The call's id, unique within the conversation; the tool result answers it by this id. */
  readonly id: string;
  /** The name of the tool the model called. */
  readonly name: string;
  /** The arguments exactly as the model wrote them (normally a JSON object, but not guaranteed). */
  readonly argumentsText: string;
}

/** Instructions for the model. Adapters that keep the system prompt apart (Anthropic) move it there. */
export interface SystemModelMessage {
  /** Discriminant. */
  readonly role: 'system';
  /** The instruction text. */
  readonly text: string;
}

/** What the person said. */
export interface UserModelMessage {
  /** Discriminant. */
  readonly role: 'user';
  /** The person's text. */
  readonly text: string;
}

/** What the model answered: text, tool calls, or both. Several tool calls are one batch. */
export interface AssistantModelMessage {
  /** Discriminant. */
  readonly role: 'assistant';
  /** The model's text; empty when it only called tools. */
  readonly text: string;
  /** The tool calls, in the order the model wrote them; empty when it only wrote text. */
  readonly toolCalls: readonly ModelToolCall[];
}

/** The result of one tool call, sent back to the model. Every assistant tool call gets exactly one. */
export interface ToolModelMessage {
  /** Discriminant. */
  readonly role: 'tool';
  /** The {@link ModelToolCall.id} this result answers. */
  readonly toolCallId: string;
  /** The name of the tool that was called. */
  readonly toolName: string;
  /** The text the model sees. */
  readonly content: string;
  /** Status, code and the rest; a status other than `success` is marked as an error to vendors that have the notion (Anthropic's `is_error`). */
  readonly toolResult: ToolResultMetadata;
}

/** One message of a conversation with a model. */
export type ModelMessage = SystemModelMessage | UserModelMessage | AssistantModelMessage | ToolModelMessage;
