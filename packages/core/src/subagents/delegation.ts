import type { DatabaseHandle } from '@clawsmith/platform';
import type { AnyToolDefinition } from '@clawsmith/tool-protocol';
import { createApplyPatchTool } from '@clawsmith/workspace-fs';
import { knownContextWindow, resolveContextWindow } from '../context/context-window.js';
import { TokenEstimator } from '../context/token-estimator.js';
import type { ContextSettings, CoreServices, SubagentHooks } from '../core-services.js';
import type { ComposedTools } from '../tool-composition.js';
import { BackgroundTasks } from './background-tasks.js';
import { recoverChildren } from './child-recovery.js';
import type { DelegationRuntime } from './child-runner.js';
import { createDelegateTaskTool } from './delegate-task-tool.js';
import { createDelegateWorktreeTool } from './delegate-worktree-tool.js';
import { DELEGATION_LIMITS, type DelegationOptions } from './delegation-options.js';
import { DelegationStore } from './delegation-store.js';

/** Delegation wired into one core: its tools, the hooks the turn loop calls, and its shutdown. */
export interface Delegation {
  readonly store: DelegationStore;
  readonly tools: readonly AnyToolDefinition[];
  readonly hooks: SubagentHooks;
  /** Gives delegation the parent's services and the children's tool table (built without delegation tools). */
  bind(parent: CoreServices, childTools: ComposedTools): void;
  /** Stops every background child and waits for it, then removes the worktrees not kept. */
  close(): Promise<void>;
}

/**
 * Creates the delegation tools. Children are sessions of the same store whose tool table has
 * no delegation tools (a child never delegates), whose mode is at most the parent's (read-only
 * for `delegate_task` and `delegate_background`), with the parent's rules and hooks.
 */
/**
 * A child's own context: the window of its model (the parent's when the model is the same), its
 * own estimator, and half of each of the parent's token budgets.
 */
function childContext(parent: ContextSettings, model: string): ContextSettings {
  const known = knownContextWindow(model);
  const window =
    parent.window.source === 'option' || parent.window.source === 'environment' || known === undefined
      ? parent.window
      : resolveContextWindow(model, known);
  const half = (budget: number | undefined) => (budget === undefined ? {} : { budget: Math.floor(budget / 2) });
  const turn = half(parent.maxTurnTokens).budget;
  const session = half(parent.maxSessionTokens).budget;
  return {
    window,
    estimator: new TokenEstimator(),
    ...(turn !== undefined ? { maxTurnTokens: turn } : {}),
    ...(session !== undefined ? { maxSessionTokens: session } : {}),
  };
}

export function createDelegation(db: DatabaseHandle, options: DelegationOptions): Delegation {
  const store = new DelegationStore(db);
  let parent: CoreServices | undefined;
  let childTools: ComposedTools | undefined;
  const bound = () => {
    if (!parent || !childTools) throw new Error('Delegation was used before the core was composed.');
    return { parent, childTools };
  };
  const runtime: DelegationRuntime = {
    delegations: store,
    options,
    active: new Set(),
    parentServices: () => bound().parent,
    childServices: (overrides) => {
      const { parent: services, childTools: tools } = bound();
      return {
        ...services,
        table: tools.table,
        catalog: tools.catalog,
        requestTools: tools.requestTools,
        provider: overrides.provider,
        permissions: { ...services.permissions, mode: overrides.permissionMode },
        maxSteps: options.maxSteps ?? DELEGATION_LIMITS.childSteps,
        context: childContext(services.context, overrides.provider.model),
        // A child has no system prompt of the parent's and delivers no background notices.
        systemPrompt: undefined,
        subagents: undefined,
        // A child's prompt is the model's, not a person's: of the turn hooks it runs SubagentStop only.
        turnHooks: services.turnHooks?.subagentStopping
          ? { stopping: services.turnHooks.subagentStopping.bind(services.turnHooks) }
          : undefined,
      } as CoreServices;
    },
  };
  const background = new BackgroundTasks(runtime);
  const worktrees = createDelegateWorktreeTool(runtime);
  return {
    store,
    tools: [
      createDelegateTaskTool(runtime),
      worktrees.tool,
      createApplyPatchTool(options.workspace ?? {}),
      ...background.tools(),
    ],
    hooks: {
      recoverChildren: (sessionId) => recoverChildren(bound().parent, store, runtime.active, sessionId),
      takeNotice: (sessionId) => background.takeNotice(sessionId),
    },
    bind(services, tools) {
      parent = services;
      childTools = tools;
    },
    async close() {
      await background.close();
      await worktrees.close();
    },
  };
}
