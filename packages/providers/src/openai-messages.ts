import type { ModelToolSchema } from '@clawsmith/tool-protocol';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ModelMessage, ToolModelMessage } from './model-message.js';

/**
 * The text of a tool message. Chat Completions has no error flag on a tool message (Anthropic's
 * `is_error`), so any status but `success` opens the text with one status line naming the code:
 * `[tool status: error, code: command_failed]`.
 */
export function toolMessageText(message: ToolModelMessage): string {
  const { status, code } = message.toolResult;
  if (status === 'success') return message.content;
  return `[tool status: ${status}${code ? `, code: ${code}` : ''}]\n${message.content}`;
}

/** The Chat Completions messages for a conversation; `system` comes first as a system message. */
export function toOpenAIMessages(
  messages: readonly ModelMessage[],
  system: string | undefined,
): ChatCompletionMessageParam[] {
  const converted: ChatCompletionMessageParam[] = [];
  if (system) converted.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        converted.push({ role: 'system', content: message.text });
        break;
      case 'user':
        converted.push({ role: 'user', content: message.text });
        break;
      case 'assistant':
        converted.push({
          role: 'assistant',
          content: message.text === '' ? null : message.text,
          ...(message.toolCalls.length > 0
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: call.argumentsText },
                })),
              }
            : {}),
        });
        break;
      case 'tool':
        converted.push({ role: 'tool', tool_call_id: message.toolCallId, content: toolMessageText(message) });
        break;
    }
  }
  return converted;
}

/** The Chat Completions function tools for the model-facing schemas. */
export function toOpenAITools(tools: readonly ModelToolSchema[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema } },
  }));
}
