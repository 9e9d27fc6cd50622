import {
  FRAMEWORK_APPROVAL_KIND,
  approvesCall,
  isFrameworkApprovalRequest,
  resultText,
  type FrameworkApprovalRequest,
  type ToolHost,
} from '@clawsmith/tool-host';
import { TOOL_RESULT_CODES, toolDenied, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import { Command, interrupt } from '@langchain/langgraph';
import { GraphSteps } from './graph-steps.js';

/** An approval a graph run waits for, with the interrupt it came in. */
export interface PendingApproval extends FrameworkApprovalRequest {
  /** The LangGraph interrupt's id: the key of the answer in `Command({ resume })`. */
  readonly interruptId: string;
}

/** Options of {@link langChainTools}. */
export interface LangChainToolsOptions {
  /** Only these tools (default: every tool of the host). */
  readonly only?: readonly string[];
  /**
   * Asks the person directly instead of interrupting the graph (for tools used outside a graph
   * with a checkpointer). Without it an `ask` becomes a LangGraph `interrupt()`.
   */
  readonly approve?: (request: FrameworkApprovalRequest) => boolean | Promise<boolean>;
}

/** The host's tools for LangChain.js / LangGraph.js, and the graph's interrupts mapped back. */
export interface LangChainTools {
  /** Structured tools whose calls go through the host's whole lifecycle. */
  readonly tools: DynamicStructuredTool[];
  /** The clawsmith approvals an interrupted run waits for: give it an `invoke` result or `await graph.getState(config)`. */
  pending(result: unknown): PendingApproval[];
  /** Asks `approve` about each pending approval; the returned command resumes the graph with the answers. */
  answer(result: unknown, approve: (pending: PendingApproval) => boolean | Promise<boolean>): Promise<Command>;
}

// Calls whose result is known, by tool call id: LangGraph re-runs a node from its start when it
// resumes after an interrupt, and a call that already ran must not run twice.
const REMEMBERED_RESULTS = 1_000;

/** The interrupts of an `invoke` result (`__interrupt__`) or of a state snapshot (`getState`: each task's `interrupts`). */
function interruptsOf(result: unknown): unknown[] {
  if (typeof result !== 'object' || result === null) return [];
  const { __interrupt__: interrupts, tasks } = result as { __interrupt__?: unknown; tasks?: unknown };
  if (Array.isArray(interrupts)) return interrupts;
  if (!Array.isArray(tasks)) return [];
  return tasks.flatMap((task: { interrupts?: unknown }) => (Array.isArray(task?.interrupts) ? task.interrupts : []));
}

function pendingOf(result: unknown): PendingApproval[] {
  return interruptsOf(result).flatMap((entry) =>
    typeof entry === 'object' &&
    entry !== null &&
    typeof (entry as { id?: unknown }).id === 'string' &&
    isFrameworkApprovalRequest((entry as { value?: unknown }).value)
      ? [{ ...(entry as { value: FrameworkApprovalRequest }).value, interruptId: (entry as { id: string }).id }]
      : [],
  );
}

/**
 * The host's tools as LangChain.js structured tools. The model sees the host's JSON Schema; each
 * call goes through the host's whole lifecycle. A call the host decides `ask` interrupts the
 * graph (`interrupt()` with an {@link FrameworkApprovalRequest}); resumed with an answer naming that call,
 * it runs with the person's approval, otherwise it is denied. A `deny` runs nothing and the model
 * reads the denied result with its reason and code. The calls of one LangGraph step share one
 * restore point. The resulting `ToolMessage` carries the `ToolExecutionResult` as its `artifact`.
 */
export function langChainTools(host: ToolHost, options: LangChainToolsOptions = {}): LangChainTools {
  const steps = new GraphSteps(host);
  const done = new Map<string, ToolExecutionResult>();
  const remember = (toolCallId: string, result: ToolExecutionResult) => {
    done.set(toolCallId, result);
    if (done.size > REMEMBERED_RESULTS) done.delete(done.keys().next().value as string);
  };

  async function approval(request: FrameworkApprovalRequest): Promise<boolean> {
    if (options.approve) return options.approve(request);
    return approvesCall(interrupt(request), request.toolCallId);
  }

  async function run(name: string, input: unknown, config: ToolRunnableConfig): Promise<ToolExecutionResult> {
    const toolCallId = config.toolCall?.id;
    const known = toolCallId === undefined ? undefined : done.get(toolCallId);
    if (known) return known;
    const decision = await host.decide(name, input, toolCallId ? { toolCallId } : {});
    let approved = false;
    if (decision.action === 'ask') {
      const request: FrameworkApprovalRequest = {
        kind: FRAMEWORK_APPROVAL_KIND,
        toolCallId: toolCallId ?? '',
        toolName: name,
        input,
        reason: decision.reason,
      };
      approved = await approval(request);
      if (!approved) {
        const declined = toolDenied(
          TOOL_RESULT_CODES.permissionDenied,
          `The person declined ${name} (${decision.reason}). Do not retry it unchanged; ask them or do something else.`,
        );
        if (toolCallId) remember(toolCallId, declined);
        return declined;
      }
    }
    await steps.enter(config);
    const result = await host.call(name, input, {
      ...(toolCallId ? { toolCallId } : {}),
      approved,
      ...(config.signal ? { signal: config.signal } : {}),
    });
    if (toolCallId) remember(toolCallId, result);
    return result;
  }

  const tools = host.describe().flatMap((described) => {
    if (options.only && !options.only.includes(described.name)) return [];
    return [
      new DynamicStructuredTool({
        name: described.name,
        description: described.description,
        schema: described.inputSchema as Record<string, unknown>,
        func: async (input: unknown, _runManager, config?: ToolRunnableConfig) => {
          const result = await run(described.name, input, config ?? {});
          const content = resultText(result);
          const toolCallId = config?.toolCall?.id;
          if (!toolCallId) return content;
          return new ToolMessage({
            content,
            tool_call_id: toolCallId,
            name: described.name,
            status: result.status === 'success' ? 'success' : 'error',
            artifact: result,
          });
        },
      }),
    ];
  });

  return {
    tools,
    pending: pendingOf,
    async answer(result, approve) {
      const resume: Record<string, { toolCallId: string; approved: boolean }> = {};
      for (const pending of pendingOf(result))
        resume[pending.interruptId] = { toolCallId: pending.toolCallId, approved: (await approve(pending)) === true };
      return new Command({ resume });
    },
  };
}
