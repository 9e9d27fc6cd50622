import {
  TOOL_RESULT_CODES,
  toolDenied,
  type AnyToolDefinition,
  type ResolvedToolSecurity,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { hookInput, runHooks, type ToolHook } from '../permissions/hooks.js';
import {
  decidePermission,
  type PermissionAction,
  type PermissionDecision,
  type PermissionMode,
  type PermissionRule,
} from '../permissions/permission-policy.js';
import { judgedFacts, resolveCallFacts, type CallFacts } from '../permissions/call-facts.js';
import type { RequestPath } from '../permissions/request-paths.js';
import { safeSummary } from './call-arguments.js';

/** A call whose arguments passed its schema, as it is judged. */
export interface CallToJudge {
  readonly tool: AnyToolDefinition;
  readonly security: ResolvedToolSecurity;
  readonly input: unknown;
  readonly summary: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly toolCallId: string;
  readonly workspaceRoot: string;
}

/** What a call is judged by. */
export interface JudgeSettings {
  readonly mode: PermissionMode;
  readonly rules: readonly PermissionRule[];
  readonly hooks: readonly ToolHook[];
  /** Tools a person allowed for the rest of the session: an `ask` for them becomes `allow`. */
  readonly sessionAllowances?: ReadonlySet<string>;
}

/** One recorded decision: a hook stage or the permission stage, with what it judged. */
export interface StageDecision {
  readonly stage: 'hook' | 'permission';
  readonly action: PermissionAction;
  readonly reason: string;
  /** The resolved workspace paths the permission stage matched rules against. */
  readonly paths?: readonly string[];
  /** Each simple command of a `command` input, as the permission stage saw it. */
  readonly commands?: readonly string[];
  /** The host of a `url` input, as the permission stage saw it (`(unreadable URL)` when it could not be read). */
  readonly domains?: readonly string[];
  /** The hook whose `updatedInput` the call runs with. */
  readonly inputUpdatedBy?: string;
}

/** The verdict before anyone is asked: `allow`, `ask` (a person must answer) or `deny` with its result. */
export interface CallJudgment {
  readonly action: PermissionAction;
  readonly reason: string;
  /** The decisions in the order they were made, for the record. */
  readonly decisions: readonly StageDecision[];
  /** The input the call runs with (a hook may have updated it) and its summary. */
  readonly input: unknown;
  readonly summary: string;
  /** The paths the call touches, resolved once for the input it runs with (absent when a hook denied). */
  readonly paths?: readonly RequestPath[];
  /** Everything the call touches, resolved once for the input it runs with (absent when a hook denied). */
  readonly facts?: CallFacts;
  /** What hooks added for the model, appended to the result. */
  readonly contexts: readonly string[];
  /** The refusal to answer with when `action` is `deny`. */
  readonly denied?: ToolExecutionResult;
}

/**
 * Judges a valid call: hooks first (they see the effective risk and capabilities; the first deny
 * wins; a failing hook denies; an updated input must pass the tool's schema again), then the
 * permission policy for the input the call runs with, then what a person allowed for the
 * session. Asks nobody: an `ask` is returned for the caller to put to a person.
 */
export async function judgeCall(call: CallToJudge, settings: JudgeSettings): Promise<CallJudgment> {
  const { tool, security } = call;
  const decisions: StageDecision[] = [];
  // Resolved once: hooks, rules, modes and the record all see these, unless a hook changes the input.
  let facts = resolveCallFacts(tool.pathArguments, call.input, call.workspaceRoot);
  const verdict = await runHooks(
    settings.hooks,
    hookInput(
      {
        toolName: tool.name,
        input: call.input,
        summary: call.summary,
        sessionId: call.sessionId,
        turnId: call.turnId,
        toolCallId: call.toolCallId,
      },
      security,
      facts,
    ),
  );
  if (settings.hooks.length > 0) {
    decisions.push({
      stage: 'hook',
      action: verdict.outcome,
      reason: verdict.outcome === 'allow' ? 'every hook allowed' : `${verdict.hook}: ${verdict.reason}`,
    });
  }
  const refuse = (code: string, reason: string, message: string): CallJudgment => ({
    action: 'deny',
    reason,
    decisions,
    input: call.input,
    summary: call.summary,
    contexts: [],
    denied: toolDenied(code, message),
  });
  if (verdict.outcome === 'deny') {
    return refuse(
      TOOL_RESULT_CODES.hookDenied,
      `${verdict.hook}: ${verdict.reason}`,
      `A hook denied ${tool.name}: ${verdict.reason}. Do not retry this call unchanged.`,
    );
  }
  let input = call.input;
  let summary = call.summary;
  if (verdict.updatedInput) {
    const validated = tool.inputSchema.safeParse(verdict.updatedInput.input);
    if (!validated.success) {
      const reason = `hook ${verdict.updatedInput.hook} gave an updatedInput that does not match the schema of ${tool.name}; denied (hooks fail closed)`;
      decisions.push({ stage: 'hook', action: 'deny', reason });
      return refuse(TOOL_RESULT_CODES.hookDenied, reason, `A hook denied ${tool.name}: ${reason}.`);
    }
    input = validated.data;
    summary = safeSummary(tool, input);
    facts = resolveCallFacts(tool.pathArguments, input, call.workspaceRoot);
  }
  let decision: PermissionDecision = decidePermission(settings.mode, settings.rules, {
    toolName: tool.name,
    input,
    security,
    facts,
  });
  if (decision.action === 'ask' && settings.mode !== 'read-only' && settings.sessionAllowances?.has(tool.name))
    decision = { action: 'allow', reason: `allowed for this session by the person (${decision.reason})` };
  if (verdict.outcome === 'ask' && decision.action === 'allow')
    decision = { action: 'ask', reason: `${verdict.hook}: ${verdict.reason}` };
  decisions.push({
    stage: 'permission',
    action: decision.action,
    reason: decision.reason,
    ...judgedFacts(facts),
    ...(verdict.updatedInput ? { inputUpdatedBy: verdict.updatedInput.hook } : {}),
  });
  const base = {
    reason: decision.reason,
    decisions,
    input,
    summary,
    paths: facts.paths,
    facts,
    contexts: verdict.contexts,
  };
  if (decision.action === 'deny') {
    return {
      ...base,
      action: 'deny',
      denied: toolDenied(TOOL_RESULT_CODES.permissionDenied, `Permission denied for ${tool.name}: ${decision.reason}.`),
    };
  }
  return { ...base, action: decision.action };
}
