import type { SessionUpdate } from '@agentclientprotocol/sdk';

/**
 * ACP's `usage_update` after a turn: the context holds what the last request read plus what the
 * model wrote in answer, out of the window core plans against.
 */
export function usageUpdate(
  lastUsage: { readonly inputTokens: number; readonly outputTokens: number },
  contextWindowTokens: number,
): SessionUpdate {
  return {
    sessionUpdate: 'usage_update',
    used: lastUsage.inputTokens + lastUsage.outputTokens,
    size: contextWindowTokens,
  };
}
