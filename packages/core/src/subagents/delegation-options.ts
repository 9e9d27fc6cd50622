import type { WorkspaceToolsOptions } from '@clawsmith/workspace-fs';
import type { Provider } from '@clawsmith/providers';
import type { DelegationKind } from './delegation-store.js';

/** Bounds of delegation (the contract: at most four read-only delegated tasks per batch). */
export const DELEGATION_LIMITS = Object.freeze({
  /** `delegate_task` children of one session running at once; a fifth call in a batch waits for a slot. */
  tasksPerBatch: 4,
  /** Default of {@link DelegationOptions.maxBackground}. */
  background: 4,
  /** Default of {@link DelegationOptions.maxSteps}. */
  childSteps: 20,
  /** Characters of a child's final answer returned inline (the rest stays in the child session). */
  summaryChars: 8_000,
  /** Paths listed as consulted by a child (and files listed as changed by a worktree child). */
  filesConsulted: 50,
  /** Characters of a worktree child's patch returned inline (the whole patch is an artifact). */
  patchChars: 40_000,
});

/** The child a provider is chosen for. */
export interface ChildDescription {
  /** How it runs: a read-only task, in the background, or in a git worktree. */
  readonly kind: DelegationKind;
  /** The session that delegated it. */
  readonly parentSessionId: string;
  /** The tool call that delegated the child (a script can address children by it). */
  readonly parentToolCallId: string;
  /** The task it was given. */
  readonly prompt: string;
}

/**
 * Turns delegation on: `delegate_task`, `delegate_worktree`, `apply_patch`, `delegate_background`,
 * `background_task_list`, `background_task_cancel`.
 */
export interface DelegationOptions {
  /** The children's model; default the parent's provider. */
  readonly provider?: Provider;
  /** A provider for one child, e.g. a script addressed by the delegating call id; undefined falls back to `provider`. */
  readonly providerFor?: (child: ChildDescription) => Provider | undefined;
  /** Model requests of a child's turn before it stops with `step_limit`; default 20. */
  readonly maxSteps?: number;
  /** Background children of one session running at once; default 4. */
  readonly maxBackground?: number;
  /**
   * Options of `apply_patch` (give the same `wall` and `protectedPaths` as the file tools);
   * default: the in-process wall and the default protected paths.
   */
  readonly workspace?: Omit<WorkspaceToolsOptions, 'workspaceRoot' | 'searchIndex'>;
}
