import { toolCancelled, toolError, toolSuccess, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import type { ChildResult } from './child-runner.js';

/**
 * A child's result as the delegating call's result: `completed` is success; `step_limit` is
 * `subagent_step_limit`; a cancelled child is `cancelled`; a failed or cut child carries its own
 * code (a provider's code when the provider failed). The content is the structured result as JSON,
 * with `extra` fields after the child's (a worktree child's branch and patch).
 */
export function childToolResult(result: ChildResult, extra: Record<string, unknown> = {}): ToolExecutionResult {
  const content = JSON.stringify({ ...result, ...extra }, null, 2);
  const display = {
    kind: 'text' as const,
    title: `subagent ${result.status} (${result.steps} steps)`,
    body: result.summary,
  };
  switch (result.status) {
    case 'completed':
      return toolSuccess(content, { display });
    case 'cancelled':
      return toolCancelled(content, { display });
    case 'step_limit':
      return toolError('subagent_step_limit', content, { display });
    default:
      return toolError(result.error?.code ?? 'subagent_failed', content, { display });
  }
}
