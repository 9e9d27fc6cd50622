import type { MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';

const EPHEMERAL = { type: 'ephemeral' } as const;

/** The cached parts of a Messages API request. */
export interface CachedRequestParts {
  readonly system: TextBlockParam[] | undefined;
  readonly messages: MessageParam[];
  readonly tools: Tool[];
}

/**
 * Places the prompt-cache breakpoints (at most 4, the API's limit): the last tool (tools are
 * cached as one prefix), the system prompt, and the last block of each of the two latest turns.
 * The latest turn's breakpoint writes the whole conversation prefix; the one before it is where
 * the previous step wrote, so every step reads the previous step's prefix from the cache.
 * The inputs are not changed: the blocks that get a breakpoint are copied.
 */
export function withCacheBreakpoints(
  system: string | undefined,
  messages: readonly MessageParam[],
  tools: readonly Tool[],
): CachedRequestParts {
  const cachedTools = tools.map((tool, index) =>
    index === tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool,
  );
  const cachedSystem =
    system === undefined ? undefined : [{ type: 'text' as const, text: system, cache_control: EPHEMERAL }];
  const cachedMessages = messages.map((message, index): MessageParam => {
    if (index < messages.length - 2) return message;
    const content =
      typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : [...message.content];
    const last = content.at(-1);
    if (last === undefined) return message;
    content[content.length - 1] = { ...last, cache_control: EPHEMERAL } as typeof last;
    return { ...message, content } as MessageParam;
  });
  return { system: cachedSystem, messages: cachedMessages, tools: cachedTools };
}
