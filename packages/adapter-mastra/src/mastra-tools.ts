import {
  FRAMEWORK_APPROVAL_KIND,
  approvesCall,
  isFrameworkApprovalRequest,
  resultText,
  type FrameworkApprovalRequest,
  type ToolHost,
} from '@clawsmith/tool-host';
import { TOOL_RESULT_CODES, toolDenied, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { createTool } from '@mastra/core/tools';

/** Options of {@link mastraTools}. */
export interface MastraToolsOptions {
  /** Only these tools (default: every tool of the host). */
  readonly only?: readonly string[];
}

/** The host's tools for a Mastra Agent, and its suspensions mapped back. */
export interface MastraTools {
  /** Mastra tools by name (the Agent's `tools`). */
  readonly tools: Record<string, ReturnType<typeof createTool>>;
  /** The approval a `tool-call-suspended` chunk's payload asks for, or undefined for another suspension. */
  pending(payload: unknown): FrameworkApprovalRequest | undefined;
}

/**
 * The host's tools as Mastra tools. Each call goes through the host's whole lifecycle. A call
 * the host decides `ask` suspends (the stream's `tool-call-suspended` chunk carries an
 * {@link FrameworkApprovalRequest}); resumed with an answer naming that call (`agent.resumeStream({
 * toolCallId, approved }, { runId })`), it runs with the person's approval, otherwise it is
 * denied. A `deny` runs nothing and the model reads the denied result with its reason and code.
 * Mastra tells a tool nothing about the step it belongs to, so each call gets a restore point of
 * its own, unless the caller opens a step (`host.beginStep()`) around a run.
 */
export function mastraTools(host: ToolHost, options: MastraToolsOptions = {}): MastraTools {
  const tools: MastraTools['tools'] = {};
  for (const described of host.describe()) {
    if (options.only && !options.only.includes(described.name)) continue;
    tools[described.name] = createTool({
      id: described.name,
      description: described.description,
      inputSchema: described.tool.inputSchema as never,
      execute: async (context, invocation) => {
        const input = context.context as unknown;
        const toolCallId = (invocation as { toolCallId?: string } | undefined)?.toolCallId;
        const decision = await host.decide(described.name, input, toolCallId ? { toolCallId } : {});
        let approved = false;
        if (decision.action === 'ask') {
          if (context.resumeData === undefined) {
            const request: FrameworkApprovalRequest = {
              kind: FRAMEWORK_APPROVAL_KIND,
              toolCallId: toolCallId ?? '',
              toolName: described.name,
              input,
              reason: decision.reason,
            };
            // Without a way to suspend there is nobody to ask: the host denies the call.
            if (!context.suspend)
              return resultText(
                await host.call(described.name, input, { ...(toolCallId ? { toolCallId } : {}), approved: false }),
              );
            await context.suspend(request);
            return undefined;
          }
          approved = approvesCall(context.resumeData, toolCallId ?? '');
          if (!approved) return resultText(declined(described.name, decision.reason));
        }
        const signal = (invocation as { abortSignal?: AbortSignal } | undefined)?.abortSignal;
        const result = await host.call(described.name, input, {
          ...(toolCallId ? { toolCallId } : {}),
          approved,
          ...(signal ? { signal } : {}),
        });
        return resultText(result);
      },
    });
  }
  return {
    tools,
    pending: (payload) => {
      const suspended = (payload as { suspendPayload?: unknown } | null)?.suspendPayload;
      return isFrameworkApprovalRequest(suspended) ? suspended : undefined;
    },
  };
}

function declined(name: string, reason: string): ToolExecutionResult {
  return toolDenied(
    TOOL_RESULT_CODES.permissionDenied,
    `The person declined ${name} (${reason}). Do not retry it unchanged; ask them or do something else.`,
  );
}
