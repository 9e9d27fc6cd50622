import type { ResolvedToolSecurity, ToolCapability, ToolRisk } from '@clawsmith/tool-protocol';
import { judgedFacts, type CallFacts } from './call-facts.js';

/** What a call touches, as resolved once for it (the same the permission stage and the decision event see). */
export interface CallTouches {
  /** Workspace-relative paths, resolved as the tool resolves them. */
  readonly paths?: readonly string[];
  /** Each simple command of a command text, its words joined by spaces (`?` for a word only known when it runs). */
  readonly commands?: readonly string[];
  /** The host of the URL the call fetches. */
  readonly domains?: readonly string[];
}

/** What a hook sees of a call: the normalised risk and capabilities, never only what the tool declared. */
export interface ToolHookInput {
  readonly toolName: string;
  readonly input: unknown;
  readonly summary: string;
  readonly risk: ToolRisk;
  readonly capabilities: readonly ToolCapability[];
  readonly sideEffect: boolean;
  readonly reasons: readonly string[];
  readonly sessionId: string;
  readonly turnId: string;
  readonly toolCallId: string;
  /** What the call touches, resolved once (absent when the caller resolved nothing). */
  readonly touches?: CallTouches;
}

/** What a hook may add to a call it does not deny. */
export interface ToolHookAmendment {
  /** The input the call runs with instead; validated again with the tool's schema (invalid denies). */
  readonly updatedInput?: unknown;
  /** Text added to the call's result for the model. */
  readonly additionalContext?: string;
}

/** A hook's answer. `allow` means no objection: the permission policy still decides. */
export type ToolHookDecision =
  | ({ readonly decision: 'allow' } & ToolHookAmendment)
  | { readonly decision: 'deny'; readonly reason: string }
  | ({ readonly decision: 'ask'; readonly reason?: string } & ToolHookAmendment);

/** A pre-tool hook. One that throws, answers nonsense or exceeds its time limit denies. */
export interface ToolHook {
  readonly name: string;
  /** Time limit in milliseconds; default 5,000. */
  readonly timeoutMs?: number;
  decide(input: ToolHookInput): ToolHookDecision | Promise<ToolHookDecision>;
}

/** What the hooks that did not deny added: the last updated input wins; contexts add up. */
export interface HookAmendments {
  readonly updatedInput?: { readonly hook: string; readonly input: unknown };
  readonly contexts: readonly string[];
}

/** The combined verdict of every hook, in order. */
export type HookVerdict =
  | ({ readonly outcome: 'allow' } & HookAmendments)
  | ({ readonly outcome: 'ask'; readonly hook: string; readonly reason: string } & HookAmendments)
  | { readonly outcome: 'deny'; readonly hook: string; readonly reason: string };

const DEFAULT_HOOK_TIMEOUT_MS = 5_000;

async function runOne(hook: ToolHook, input: ToolHookInput): Promise<ToolHookDecision> {
  const limit = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ToolHookDecision>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          decision: 'deny',
          reason: `hook ${hook.name} did not answer within ${limit} ms; denied (hooks fail closed)`,
        }),
      limit,
    );
  });
  try {
    const answer = await Promise.race([Promise.resolve().then(() => hook.decide(input)), timeout]);
    if (answer?.decision === 'allow') return answer;
    if (answer?.decision === 'deny')
      return {
        decision: 'deny',
        reason: typeof answer.reason === 'string' && answer.reason ? answer.reason : `hook ${hook.name} denied`,
      };
    if (answer?.decision === 'ask')
      return {
        ...answer,
        decision: 'ask',
        reason: typeof answer.reason === 'string' ? answer.reason : `hook ${hook.name} asks for approval`,
      };
    return { decision: 'deny', reason: `hook ${hook.name} gave no valid decision; denied (hooks fail closed)` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      decision: 'deny',
      reason: `hook ${hook.name} failed (${message.slice(0, 300)}); denied (hooks fail closed)`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs the hooks in order: the first deny wins; otherwise any ask asks; otherwise allow. A hook
 * after one that updated the input sees the updated input.
 */
export async function runHooks(hooks: readonly ToolHook[], input: ToolHookInput): Promise<HookVerdict> {
  let ask: { hook: string; reason: string } | undefined;
  let updatedInput: HookAmendments['updatedInput'];
  const contexts: string[] = [];
  for (const hook of hooks) {
    // What was resolved for the original input says nothing about an updated one.
    const seen = updatedInput ? { ...input, input: updatedInput.input, touches: undefined } : input;
    const answer = await runOne(hook, seen);
    if (answer.decision === 'deny') return { outcome: 'deny', hook: hook.name, reason: answer.reason };
    if (answer.decision === 'ask' && !ask)
      ask = { hook: hook.name, reason: answer.reason ?? `hook ${hook.name} asks for approval` };
    if (answer.updatedInput !== undefined) updatedInput = { hook: hook.name, input: answer.updatedInput };
    if (typeof answer.additionalContext === 'string' && answer.additionalContext !== '')
      contexts.push(answer.additionalContext);
  }
  const amendments = { ...(updatedInput ? { updatedInput } : {}), contexts };
  return ask ? { outcome: 'ask', ...ask, ...amendments } : { outcome: 'allow', ...amendments };
}

/** Builds the input hooks see for a call. */
export function hookInput(
  call: { toolName: string; input: unknown; summary: string; sessionId: string; turnId: string; toolCallId: string },
  security: ResolvedToolSecurity,
  facts?: CallFacts,
): ToolHookInput {
  return {
    ...call,
    risk: security.risk,
    capabilities: security.capabilities,
    sideEffect: security.sideEffect,
    reasons: security.reasons,
    ...(facts ? { touches: judgedFacts(facts) } : {}),
  };
}

/** What a result hook sees: the call as it ran and its result. */
export interface ToolResultHookInput extends ToolHookInput {
  readonly status: string;
  readonly content: string;
}

/**
 * A hook that runs after a call completed (a formatter, a linter): its feedback is added to the
 * result the model reads. One that throws or exceeds its time limit adds a note that says so.
 */
export interface ToolResultHook {
  readonly name: string;
  /** Time limit in milliseconds; default 5,000. */
  readonly timeoutMs?: number;
  after(input: ToolResultHookInput): Promise<{ readonly feedback?: string }>;
}

/** Runs the result hooks in order; returns the feedback for the model, one entry per hook that gave any. */
export async function runResultHooks(hooks: readonly ToolResultHook[], input: ToolResultHookInput): Promise<string[]> {
  const feedback: string[] = [];
  for (const hook of hooks) {
    const limit = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<{ feedback: string }>((resolve) => {
      timer = setTimeout(() => resolve({ feedback: `[hook ${hook.name} did not answer within ${limit} ms]` }), limit);
    });
    try {
      const answer = await Promise.race([Promise.resolve().then(() => hook.after(input)), timeout]);
      if (typeof answer?.feedback === 'string' && answer.feedback !== '') feedback.push(answer.feedback);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      feedback.push(`[hook ${hook.name} failed: ${message.slice(0, 300)}]`);
    } finally {
      clearTimeout(timer);
    }
  }
  return feedback;
}
