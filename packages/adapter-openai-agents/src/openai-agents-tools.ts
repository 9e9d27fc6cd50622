import { resultText, type ToolHost } from '@clawsmith/tool-host';
import { withoutStrictNulls } from './strict-nulls.js';
import { tool, type FunctionTool, type RunToolApprovalItem } from '@openai/agents';

/** An interruption of a run, put in the host's terms: what asks, why, and the two answers. */
export interface PendingApproval {
  readonly toolName: string;
  /** The arguments the model sent (strict mode's nulls for left-out fields removed). */
  readonly input: unknown;
  /** Why the host asks (the mode, the rule or the hook that said `ask`). */
  readonly reason: string;
  /** The interruption itself, for the SDK. */
  readonly item: RunToolApprovalItem;
}

/** What `answer` needs of a run's state (`RunResult.state`). */
export interface ApprovalState {
  approve(item: RunToolApprovalItem): void;
  reject(item: RunToolApprovalItem): void;
}

/** The host's tools for an Agent, and its interruptions mapped back to the host's reasons. */
export interface OpenAiAgentsTools {
  /** Function tools (strict mode) whose `needsApproval` is the host's decision. */
  readonly tools: FunctionTool[];
  /** The approvals a run waits for, with the host's reason for each. */
  pending(result: { readonly interruptions: readonly RunToolApprovalItem[] }): PendingApproval[];
  /** Answers every pending approval on the run's state (then `run(agent, result.state)` goes on). */
  answer(
    result: { readonly interruptions: readonly RunToolApprovalItem[]; readonly state: ApprovalState },
    approve: (pending: PendingApproval) => boolean | Promise<boolean>,
  ): Promise<void>;
}

function callIdOf(item: RunToolApprovalItem): string | undefined {
  const raw = item.rawItem as { callId?: unknown };
  return typeof raw.callId === 'string' ? raw.callId : undefined;
}

/**
 * The host's tools as OpenAI Agents SDK function tools. Each tool's parameters are the host's
 * JSON Schema in strict mode: the SDK makes every field required and the optional ones
 * nullable, and strips those nulls again before the host validates the input with the tool's
 * zod schema, so limits the SDK's own zod conversion would drop are still enforced. A call the
 * host decides `ask` interrupts the run; one the person approved runs with that approval; a
 * `deny` runs nothing and the model reads the denied result with its reason and code.
 */
export function openAiAgentsTools(host: ToolHost): OpenAiAgentsTools {
  // Calls this set put to a person, with the host's reason: only those run with an approval.
  const asked = new Map<string, { reason: string; input: unknown }>();
  const tools = host.describe().map((described) =>
    tool({
      name: described.name,
      description: described.description,
      parameters: { ...described.inputSchema, type: 'object' } as never,
      strict: true,
      needsApproval: async (_context, sent, callId) => {
        const input = withoutStrictNulls(described.inputSchema, sent);
        const decision = await host.decide(described.name, input, callId ? { toolCallId: callId } : {});
        if (decision.action !== 'ask') return false;
        if (callId) asked.set(callId, { reason: decision.reason, input });
        return true;
      },
      execute: async (input, _context, details) => {
        const toolCallId = details?.toolCall?.callId;
        const approved = toolCallId !== undefined && asked.delete(toolCallId);
        const result = await host.call(described.name, input, {
          ...(toolCallId ? { toolCallId } : {}),
          approved,
          ...(details?.signal ? { signal: details.signal } : {}),
        });
        return resultText(result);
      },
    }),
  );
  const pending = (result: { readonly interruptions: readonly RunToolApprovalItem[] }): PendingApproval[] =>
    result.interruptions.map((item) => {
      const recorded = asked.get(callIdOf(item) ?? '');
      return {
        toolName: item.toolName ?? (item.rawItem as { name?: string }).name ?? 'unknown',
        input: recorded?.input,
        reason: recorded?.reason ?? 'the tool needs approval',
        item,
      };
    });
  return {
    tools,
    pending,
    async answer(result, approve) {
      for (const approval of pending(result)) {
        if (await approve(approval)) result.state.approve(approval.item);
        else result.state.reject(approval.item);
      }
    },
  };
}
