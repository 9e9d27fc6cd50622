import { defineTool, type AnyToolDefinition } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { childToolResult } from './child-result.js';
import { runChild, type DelegationRuntime } from './child-runner.js';
import { DELEGATION_LIMITS } from './delegation-options.js';
import { TaskSlots } from './task-slots.js';

const delegateTaskInput = z.strictObject({
  prompt: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe('The task, complete on its own: the subagent sees nothing of this conversation.'),
  focusPaths: z
    .array(z.string().min(1).max(4_096))
    .max(20)
    .optional()
    .describe('Workspace-relative paths the subagent should start from.'),
});

/**
 * `delegate_task` (risk read, concurrency-safe): runs a read-only child session to completion
 * and returns its bounded structured answer. Up to four run at once per session; a fifth waits.
 */
export function createDelegateTaskTool(runtime: DelegationRuntime): AnyToolDefinition {
  const slots = new TaskSlots(DELEGATION_LIMITS.tasksPerBatch);
  return defineTool({
    name: 'delegate_task',
    description:
      'Hand an independent, read-only investigation to a subagent (it can read, list and search files, never change them). ' +
      'Returns its final answer as JSON: summary, filesConsulted, childSessionId, status. Several delegate_task calls in one message run in parallel (four at a time).',
    risk: 'read',
    capabilities: ['agent.delegate'],
    concurrencySafe: true,
    inputSchema: delegateTaskInput,
    summarize: (input) => `delegate: ${input.prompt.replace(/\s+/g, ' ').slice(0, 120)}`,
    searchMetadata: { aliases: ['subagent', 'agent', 'delegate'], tags: ['agent'] },
    async execute(input, context) {
      const release = await slots.acquire(context.sessionId, context.signal);
      try {
        return childToolResult(
          await runChild(runtime, {
            kind: 'task',
            parentSessionId: context.sessionId,
            parentTurnId: context.turnId,
            parentToolCallId: context.toolCallId,
            prompt: input.prompt,
            ...(input.focusPaths ? { focusPaths: input.focusPaths } : {}),
            workspaceRoot: context.workspaceRoot,
            // Read-only whatever the parent's mode: a delegated task never writes.
            permissionMode: 'read-only',
            signal: context.signal,
          }),
        );
      } finally {
        release();
      }
    },
  });
}
