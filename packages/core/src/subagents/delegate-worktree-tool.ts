import { defineTool, type AnyToolDefinition, type ArtifactReference } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { childToolResult } from './child-result.js';
import { runChild, type DelegationRuntime } from './child-runner.js';
import { DELEGATION_LIMITS } from './delegation-options.js';
import {
  collectWorktreeChanges,
  createSubagentWorktree,
  removeSubagentWorktree,
  type SubagentWorktree,
} from './git-worktree.js';

const delegateWorktreeInput = z.strictObject({
  prompt: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe('The change to make, complete on its own: the subagent sees nothing of this conversation.'),
  focusPaths: z
    .array(z.string().min(1).max(4_096))
    .max(20)
    .optional()
    .describe('Workspace-relative paths the subagent should start from.'),
  keepWorktree: z
    .boolean()
    .optional()
    .describe('Keep the worktree folder after the session ends (default: removed; the branch always stays).'),
});

/** `delegate_worktree` and what ends with the core: the worktrees not kept. */
export interface DelegateWorktree {
  readonly tool: AnyToolDefinition;
  /** Removes every worktree made in this process that was not kept. */
  close(): Promise<void>;
}

/**
 * `delegate_worktree` (risk execute, so approved like a command and run one at a time): makes a
 * git worktree of the workspace's repository on a new branch in a temporary folder outside the
 * workspace, runs a child there with the parent's permission mode, commits the child's changes on
 * the branch, and returns the patch (bounded inline, whole as an artifact) with the branch name.
 * The parent's workspace is not touched: `apply_patch` applies the patch, as a step of its own.
 */
export function createDelegateWorktreeTool(runtime: DelegationRuntime): DelegateWorktree {
  const made = new Map<string, { worktree: SubagentWorktree; keep: boolean }>();
  const tool = defineTool({
    name: 'delegate_worktree',
    description:
      'Hand a self-contained change to a subagent that works in its own git worktree (a new branch, outside this workspace) ' +
      'with your permissions. Returns JSON with its summary, the branch and the patch of its changes; this workspace is ' +
      'unchanged until you apply the patch with apply_patch. Needs a git repository without uncommitted changes.',
    risk: 'execute',
    capabilities: ['agent.delegate', 'process.execute'],
    concurrencySafe: false,
    inputSchema: delegateWorktreeInput,
    summarize: (input) => `delegate in a worktree: ${input.prompt.replace(/\s+/g, ' ').slice(0, 120)}`,
    searchMetadata: { aliases: ['subagent', 'worktree', 'branch'], tags: ['agent', 'git'] },
    async execute(input, context) {
      const worktree = await createSubagentWorktree(context.workspaceRoot, context.signal);
      made.set(worktree.path, { worktree, keep: input.keepWorktree === true });
      const result = await runChild(runtime, {
        kind: 'worktree',
        parentSessionId: context.sessionId,
        parentTurnId: context.turnId,
        parentToolCallId: context.toolCallId,
        prompt: input.prompt,
        ...(input.focusPaths ? { focusPaths: input.focusPaths } : {}),
        workspaceRoot: worktree.workspaceRoot,
        // The parent's mode, never wider: its approvals, rules and hooks apply to the child too.
        permissionMode: runtime.parentServices().permissions.mode,
        signal: context.signal,
        workspaceNote: `It is a git worktree on the branch ${worktree.branch}; your changes there are returned as a patch, and the other agent decides whether to apply them.`,
      });
      const changes = await collectWorktreeChanges(worktree, `clawsmith subagent: ${input.prompt.slice(0, 200)}`);
      const limit = DELEGATION_LIMITS.patchChars;
      let artifact: ArtifactReference | undefined;
      if (changes.patch.length > 0 && context.artifacts)
        artifact = await context.artifacts.write(changes.patch, { mediaType: 'text/x-diff; charset=utf-8' });
      return childToolResult(result, {
        branch: worktree.branch,
        baseCommit: worktree.baseCommit,
        commit: changes.commit ?? null,
        worktree: input.keepWorktree === true ? worktree.workspaceRoot : null,
        filesChanged: changes.files.slice(0, DELEGATION_LIMITS.filesConsulted),
        patchBytes: Buffer.byteLength(changes.patch),
        patchTruncated: changes.patch.length > limit,
        ...(artifact ? { patchArtifact: artifact.id } : {}),
        patch: changes.patch.slice(0, limit),
      });
    },
  });
  return {
    tool,
    async close() {
      for (const [path, entry] of [...made]) {
        made.delete(path);
        if (!entry.keep) await removeSubagentWorktree(entry.worktree).catch(() => undefined);
      }
    },
  };
}
