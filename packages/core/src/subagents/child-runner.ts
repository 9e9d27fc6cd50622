import type { AssistantModelMessage } from '@clawsmith/providers';
import type { TurnResult } from '../agent-core-options.js';
import type { CoreServices } from '../core-services.js';
import type { PermissionMode } from '@clawsmith/tool-host';
import { runTurn } from '../turn-loop.js';
import { DELEGATION_LIMITS, type DelegationOptions } from './delegation-options.js';
import type { DelegationKind, DelegationStatus, DelegationStore } from './delegation-store.js';

/** What a child returns to its parent: bounded, structured, never its intermediate messages. */
export interface ChildResult {
  /** The child's own session (its transcript). */
  readonly childSessionId: string;
  /** How the child ended. */
  readonly status: Exclude<DelegationStatus, 'running'>;
  /** The child's final answer, cut at {@link DELEGATION_LIMITS.summaryChars}. */
  readonly summary: string;
  /** Whether `summary` was cut. */
  readonly summaryTruncated: boolean;
  /** Workspace paths the child's tool calls named (read, searched, listed). */
  readonly filesConsulted: readonly string[];
  /** Model steps the child took. */
  readonly steps: number;
  /** Why the child failed, when it did. */
  readonly error?: { readonly code: string; readonly message: string };
}

/** What the delegation tools share: the store, the child services, the options. */
export interface DelegationRuntime {
  readonly delegations: DelegationStore;
  readonly options: DelegationOptions;
  /** The parent's services (the child services are derived from them). */
  parentServices(): CoreServices;
  /** Services for a child: the tool table without delegation tools, the child's provider, mode and step limit. */
  childServices(overrides: { provider: CoreServices['provider']; permissionMode: PermissionMode }): CoreServices;
  /** Children running in this process (recovery leaves them alone). */
  readonly active: Set<string>;
}

/** One child to run. */
export interface ChildRequest {
  readonly kind: DelegationKind;
  readonly parentSessionId: string;
  readonly parentTurnId: string;
  readonly parentToolCallId: string;
  readonly prompt: string;
  readonly focusPaths?: readonly string[];
  readonly workspaceRoot: string;
  readonly permissionMode: PermissionMode;
  readonly signal: AbortSignal;
  /** Extra lines for the child's instructions (what its workspace is). */
  readonly workspaceNote?: string;
  /** Called with the child's session id once its session and delegation record exist. */
  readonly onStarted?: (childSessionId: string) => void;
}

function childInstructions(request: ChildRequest): string {
  const access =
    request.permissionMode === 'read-only'
      ? 'You work read-only: you can read, list and search files, but not change them or run commands.'
      : `You work with the permission mode ${request.permissionMode}; every change is recorded and undoable.`;
  return [
    'You are a subagent of clawsmith: another agent delegated one task to you.',
    `Your workspace is ${request.workspaceRoot}. ${request.workspaceNote ?? ''}`.trim(),
    access,
    'Only your final answer goes back to the agent that delegated the task, not your intermediate messages.',
    'Finish with a concise answer: what you found or did, naming files (and lines) where useful.',
  ].join('\n');
}

function childPrompt(request: ChildRequest): string {
  const focus =
    request.focusPaths && request.focusPaths.length > 0
      ? `\n\nFocus on these paths: ${request.focusPaths.join(', ')}`
      : '';
  return `${request.prompt}${focus}`;
}

function consultedPaths(messages: readonly { role: string }[]): string[] {
  const paths = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of (message as AssistantModelMessage).toolCalls ?? []) {
      try {
        const input = JSON.parse(call.argumentsText) as Record<string, unknown>;
        for (const key of ['path', 'cwd']) if (typeof input[key] === 'string') paths.add(input[key]);
      } catch {
        // a call with broken arguments named no path
      }
      if (paths.size >= DELEGATION_LIMITS.filesConsulted) return [...paths];
    }
  }
  return [...paths];
}

/**
 * Runs one child session to the end of its single turn: creates the session and its delegation
 * record, runs the turn with the child's services (never wider than the parent's permissions),
 * and records and returns the bounded result. A child's provider error is its result (`failed`
 * with the provider's code), never an exception.
 */
export async function runChild(runtime: DelegationRuntime, request: ChildRequest): Promise<ChildResult> {
  const parent = runtime.parentServices();
  const { store } = parent;
  const child = await store.createSession({
    workspaceRoot: request.workspaceRoot,
    title: `subagent: ${request.prompt.replace(/\s+/g, ' ').slice(0, 70)}`,
  });
  await store.appendEvent(child.id, {
    type: 'session.created',
    workspaceRoot: child.workspaceRoot,
    delegatedBy: {
      sessionId: request.parentSessionId,
      turnId: request.parentTurnId,
      toolCallId: request.parentToolCallId,
      kind: request.kind,
    },
  });
  // Marked active before its record exists, so recovery never takes a starting child for a dead one.
  runtime.active.add(child.id);
  await runtime.delegations.create({
    childSessionId: child.id,
    parentSessionId: request.parentSessionId,
    parentTurnId: request.parentTurnId,
    parentToolCallId: request.parentToolCallId,
    kind: request.kind,
    prompt: request.prompt,
  });
  request.onStarted?.(child.id);
  const description = {
    kind: request.kind,
    parentSessionId: request.parentSessionId,
    parentToolCallId: request.parentToolCallId,
    prompt: request.prompt,
  };
  const provider = runtime.options.providerFor?.(description) ?? runtime.options.provider ?? parent.provider;
  const services = runtime.childServices({ provider, permissionMode: request.permissionMode });
  let turn: TurnResult | undefined;
  let thrown: { code: string; message: string } | undefined;
  try {
    turn = await runTurn(services, {
      sessionId: child.id,
      prompt: childPrompt(request),
      systemPrompt: childInstructions(request),
      signal: request.signal,
    });
  } catch (error) {
    thrown = {
      code: (error as { code?: string }).code ?? 'subagent_failed',
      message: error instanceof Error ? error.message : String(error),
    };
  } finally {
    runtime.active.delete(child.id);
  }
  const status: ChildResult['status'] = turn ? turn.status : 'failed';
  const text = turn?.text ?? '';
  const error = thrown ?? (turn?.error ? { code: turn.error.code, message: turn.error.message } : undefined);
  const result: ChildResult = {
    childSessionId: child.id,
    status,
    summary: text.slice(0, DELEGATION_LIMITS.summaryChars),
    summaryTruncated: text.length > DELEGATION_LIMITS.summaryChars,
    filesConsulted: consultedPaths(await store.listMessages(child.id)),
    steps: turn?.steps ?? 0,
    ...(error ? { error } : {}),
  };
  await runtime.delegations.complete(child.id, status, result);
  return result;
}
