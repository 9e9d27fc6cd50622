import { resultText, type ToolHost } from '@clawsmith/tool-host';
import type { ToolExecutionResult } from '@clawsmith/tool-protocol';
import { jsonSchema, tool, type ModelMessage, type ToolSet } from 'ai';
import { StepTracker } from './step-tracker.js';

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions {
  /** Only these tools (default: every tool of the host). */
  readonly only?: readonly string[];
}

/**
 * The host's tools as an AI SDK tool set. Each call goes through the host's whole lifecycle:
 * `needsApproval` is true exactly when the host decides `ask` (the SDK then asks its person;
 * a call the person approved runs with that approval), a `deny` runs nothing and answers with
 * the denied result, its reason and code. The calls of one step share one restore point. The
 * model reads the result's status, code and `retryable` for anything but success.
 */
export function aiSdkTools(host: ToolHost, options: AiSdkToolsOptions = {}): ToolSet {
  const steps = new StepTracker(host);
  // Calls the SDK put to its person: only those run with the person's approval.
  const askedCalls = new Set<string>();
  const tools: ToolSet = {};
  for (const described of host.describe()) {
    if (options.only && !options.only.includes(described.name)) continue;
    tools[described.name] = tool<unknown, ToolExecutionResult>({
      description: described.description,
      inputSchema: jsonSchema(described.inputSchema as Parameters<typeof jsonSchema>[0]),
      needsApproval: async (input, { toolCallId }) => {
        const decision = await host.decide(described.name, input, { toolCallId });
        if (decision.action !== 'ask') return false;
        askedCalls.add(toolCallId);
        return true;
      },
      execute: async (input, { toolCallId, abortSignal, messages }) => {
        await steps.enter(messages as ModelMessage[] | undefined);
        const approved = askedCalls.delete(toolCallId);
        return host.call(described.name, input, {
          toolCallId,
          approved,
          ...(abortSignal ? { signal: abortSignal } : {}),
        });
      },
      toModelOutput: ({ output }) => ({ type: 'text', value: resultText(output) }),
    });
  }
  return tools;
}
