import type { ModelToolSchema } from '@clawsmith/tool-protocol';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ModelMessage } from './model-message.js';

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
        // Chat Completions has no error flag on a tool message: the content says what happened.
        converted.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
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
