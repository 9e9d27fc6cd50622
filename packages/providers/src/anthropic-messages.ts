import type { ModelToolSchema } from '@clawsmith/tool-protocol';
import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ModelMessage } from './model-message.js';

/** A Messages API request's `system` and `messages` for a conversation. */
export interface AnthropicConversation {
  /** Every system text (the request's first), joined by blank lines; absent when there is none. */
  readonly system: string | undefined;
  /** The turns, roles alternating, consecutive messages of one role merged. */
  readonly messages: MessageParam[];
}

function toolUseInput(argumentsText: string): Record<string, unknown> {
  // The Messages API requires an object; arguments that were not one already got an
  // `invalid_json`/`invalid_arguments` result, which the model sees next.
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  return {};
}

function blocksOf(message: Exclude<ModelMessage, { role: 'system' }>): ContentBlockParam[] {
  switch (message.role) {
    case 'user':
      return message.text === '' ? [] : [{ type: 'text', text: message.text }];
    case 'assistant':
      return [
        ...(message.text === '' ? [] : [{ type: 'text' as const, text: message.text }]),
        ...message.toolCalls.map((call) => ({
          type: 'tool_use' as const,
          id: call.id,
          name: call.name,
          input: toolUseInput(call.argumentsText),
        })),
      ];
    case 'tool':
      return [
        {
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: message.content,
          ...(message.toolResult.status === 'success' ? {} : { is_error: true }),
        },
      ];
  }
}

/**
 * Converts a conversation to the Messages API: system messages move to `system`; tool results
 * become `tool_result` blocks in a user turn (`is_error: true` for any status but `success`);
 * assistant tool calls become `tool_use` blocks.
 */
export function toAnthropicConversation(
  messages: readonly ModelMessage[],
  system: string | undefined,
): AnthropicConversation {
  const systemTexts = system ? [system] : [];
  const turns: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      systemTexts.push(message.text);
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return { system: systemTexts.length > 0 ? systemTexts.join('\n\n') : undefined, messages: turns };
}

/** The Messages API tools for the model-facing schemas. */
export function toAnthropicTools(tools: readonly ModelToolSchema[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.inputSchema } as Tool.InputSchema,
  }));
}
