import type {
  ToolHook,
  ToolHookDecision,
  ToolHookInput,
  ToolResultHook,
  ToolResultHookInput,
} from '@clawsmith/tool-host';
import { runHookProcess, type HookProcessOutcome, type HookSandbox } from './hook-process.js';
import type { SettingsHookEvent } from './settings-schema.js';
import { aliasesOf } from './tool-aliases.js';

/** One `command` handler of a settings file, where it came from and which tools it sees. */
export interface CommandHookSpec {
  readonly event: SettingsHookEvent;
  readonly matcher: string | undefined;
  readonly command: string;
  /** Seconds; default 60. */
  readonly timeout?: number;
  /** The settings file it came from, for messages. */
  readonly source: string;
  /** The folder the command runs in (the workspace). */
  readonly cwd: string;
  /** Where the command runs: the command sandbox (its options) or, when the person's own settings say so, `off`. */
  readonly sandbox: HookSandbox;
}

function runHookCommand(spec: CommandHookSpec, stdin: string, timeoutMs: number): Promise<HookProcessOutcome> {
  return runHookProcess({ command: spec.command, cwd: spec.cwd, stdin, timeoutMs, sandbox: spec.sandbox });
}

/** Whether a matcher selects `toolName`: absent, `*` or `""` select every tool; else exact names, aliases, `A|B`, or a regular expression. */
export function hookMatcherSelects(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  const names = [toolName, ...aliasesOf(toolName)];
  if (/^[A-Za-z0-9_|-]+$/.test(matcher)) return matcher.split('|').some((part) => names.includes(part));
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${matcher})$`);
  } catch {
    return false;
  }
  return names.some((name) => pattern.test(name));
}

export function hookName(spec: CommandHookSpec): string {
  return `${spec.event} hook "${spec.command.slice(0, 80)}" (${spec.source})`;
}

function stdinOf(spec: CommandHookSpec, input: ToolHookInput, extra: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: input.sessionId,
    cwd: spec.cwd,
    hook_event_name: spec.event,
    tool_name: input.toolName,
    tool_aliases: aliasesOf(input.toolName),
    tool_input: input.input,
    tool_use_id: input.toolCallId,
    turn_id: input.turnId,
    risk: input.risk,
    capabilities: input.capabilities,
    ...(input.touches ? { touches: input.touches } : {}),
    ...extra,
  });
}

export function failure(name: string, outcome: HookProcessOutcome, timeoutMs: number): string | undefined {
  if (outcome.spawnError) return `${name} could not start (${outcome.spawnError})`;
  if (outcome.timedOut) return `${name} did not finish within ${timeoutMs} ms`;
  if (outcome.exitCode !== 0 && outcome.exitCode !== 2)
    return `${name} failed with exit code ${outcome.exitCode}${outcome.stderr.trim() ? `: ${outcome.stderr.trim().slice(0, 300)}` : ''}`;
  return undefined;
}

export type JsonAnswer = Record<string, unknown>;

export function parseAnswer(stdout: string): JsonAnswer | undefined | 'nonsense' {
  const text = stdout.trim();
  if (text === '') return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonAnswer) : 'nonsense';
  } catch {
    return 'nonsense';
  }
}

/**
 * A PreToolUse `command` handler as a core hook: the call's JSON on stdin; exit 2 denies with
 * stderr as the reason; exit 0 with JSON may answer `hookSpecificOutput.permissionDecision`
 * (allow, deny, ask) with `permissionDecisionReason`, `updatedInput` and `additionalContext`.
 * A crash, a timeout, another exit code or output that is not such JSON denies.
 */
export function commandToolHook(spec: CommandHookSpec): ToolHook {
  const name = hookName(spec);
  const timeoutMs = (spec.timeout ?? 60) * 1000;
  return {
    name,
    // The command's own timeout governs; core's limit is a backstop just beyond it.
    timeoutMs: timeoutMs + 2_000,
    async decide(input): Promise<ToolHookDecision> {
      if (!hookMatcherSelects(spec.matcher, input.toolName)) return { decision: 'allow' };
      const outcome = await runHookCommand(spec, stdinOf(spec, input, {}), timeoutMs);
      const failed = failure(name, outcome, timeoutMs);
      if (failed) return { decision: 'deny', reason: `${failed}; denied (hooks fail closed)` };
      if (outcome.exitCode === 2)
        return { decision: 'deny', reason: outcome.stderr.trim().slice(0, 2000) || `${name} blocked the call` };
      const answer = parseAnswer(outcome.stdout);
      if (answer === undefined) return { decision: 'allow' };
      if (answer === 'nonsense')
        return {
          decision: 'deny',
          reason: `${name} printed output that is not a JSON object; denied (hooks fail closed)`,
        };
      const specific = (answer.hookSpecificOutput ?? {}) as JsonAnswer;
      const decision = specific.permissionDecision;
      const reason =
        typeof specific.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : undefined;
      const amendment = {
        ...(specific.updatedInput !== undefined ? { updatedInput: specific.updatedInput } : {}),
        ...(typeof specific.additionalContext === 'string' ? { additionalContext: specific.additionalContext } : {}),
      };
      if (answer.decision === 'block' || decision === 'deny')
        return {
          decision: 'deny',
          reason: reason ?? (typeof answer.reason === 'string' ? answer.reason : `${name} denied`),
        };
      if (decision === 'ask') return { decision: 'ask', ...(reason ? { reason } : {}), ...amendment };
      if (decision === 'allow' || decision === undefined) return { decision: 'allow', ...amendment };
      return {
        decision: 'deny',
        reason: `${name} answered permissionDecision ${JSON.stringify(decision)}, not allow, deny or ask; denied (hooks fail closed)`,
      };
    },
  };
}

/**
 * A PostToolUse `command` handler as a core result hook: the call and its result on stdin;
 * exit 2 gives stderr to the model; JSON may give `decision: "block"` with `reason`, or
 * `hookSpecificOutput.additionalContext`. A crash, a timeout or nonsense output is said to the model.
 */
export function commandResultHook(spec: CommandHookSpec): ToolResultHook {
  const name = hookName(spec);
  const timeoutMs = (spec.timeout ?? 60) * 1000;
  return {
    name,
    timeoutMs: timeoutMs + 2_000,
    async after(input: ToolResultHookInput) {
      if (!hookMatcherSelects(spec.matcher, input.toolName)) return {};
      const outcome = await runHookCommand(
        spec,
        stdinOf(spec, input, { tool_response: { status: input.status, content: input.content } }),
        timeoutMs,
      );
      const failed = failure(name, outcome, timeoutMs);
      if (failed) return { feedback: failed };
      if (outcome.exitCode === 2) return { feedback: outcome.stderr.trim().slice(0, 4000) };
      const answer = parseAnswer(outcome.stdout);
      if (answer === undefined) return {};
      if (answer === 'nonsense') return { feedback: `${name} printed output that is not a JSON object` };
      const specific = (answer.hookSpecificOutput ?? {}) as JsonAnswer;
      const parts = [
        answer.decision === 'block' && typeof answer.reason === 'string' ? answer.reason : undefined,
        typeof specific.additionalContext === 'string' ? specific.additionalContext : undefined,
      ].filter((part): part is string => Boolean(part));
      return parts.length > 0 ? { feedback: parts.join('\n') } : {};
    },
  };
}
