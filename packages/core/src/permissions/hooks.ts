import type { ResolvedToolSecurity, ToolCapability, ToolRisk } from '@clawsmith/tool-protocol';

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
}

/** A hook's answer. `allow` means no objection: the permission policy still decides. */
export type ToolHookDecision =
  | { readonly decision: 'allow' }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'ask'; readonly reason?: string };

/** A pre-tool hook. One that throws, answers nonsense or exceeds its time limit denies. */
export interface ToolHook {
  readonly name: string;
  /** Time limit in milliseconds; default 5,000. */
  readonly timeoutMs?: number;
  decide(input: ToolHookInput): ToolHookDecision | Promise<ToolHookDecision>;
}

/** The combined verdict of every hook, in order. */
export type HookVerdict =
  | { readonly outcome: 'allow' }
  | { readonly outcome: 'ask'; readonly hook: string; readonly reason: string }
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

/** Runs the hooks in order: the first deny wins; otherwise any ask asks; otherwise allow. */
export async function runHooks(hooks: readonly ToolHook[], input: ToolHookInput): Promise<HookVerdict> {
  let ask: HookVerdict | undefined;
  for (const hook of hooks) {
    const answer = await runOne(hook, input);
    if (answer.decision === 'deny') return { outcome: 'deny', hook: hook.name, reason: answer.reason };
    if (answer.decision === 'ask' && !ask)
      ask = { outcome: 'ask', hook: hook.name, reason: answer.reason ?? `hook ${hook.name} asks for approval` };
  }
  return ask ?? { outcome: 'allow' };
}

/** Builds the input hooks see for a call. */
export function hookInput(
  call: { toolName: string; input: unknown; summary: string; sessionId: string; turnId: string; toolCallId: string },
  security: ResolvedToolSecurity,
): ToolHookInput {
  return {
    ...call,
    risk: security.risk,
    capabilities: security.capabilities,
    sideEffect: security.sideEffect,
    reasons: security.reasons,
  };
}
