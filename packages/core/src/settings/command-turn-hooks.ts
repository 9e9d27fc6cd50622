import type { SessionHookInput, StopVerdict, TurnHookInput, TurnHooks } from '../turn-hooks.js';
import {
  failure,
  hookMatcherSelects,
  hookName,
  parseAnswer,
  type CommandHookSpec,
  type JsonAnswer,
} from './command-hook.js';
import { runHookProcess } from './hook-process.js';

type Ran =
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'exit2'; readonly stderr: string }
  | { readonly kind: 'answered'; readonly answer: JsonAnswer | undefined; readonly stdout: string }
  | { readonly kind: 'text'; readonly stdout: string };

async function run(
  spec: CommandHookSpec,
  input: SessionHookInput,
  extra: Record<string, unknown>,
  options: { plainText?: boolean } = {},
): Promise<Ran> {
  const name = hookName(spec);
  const timeoutMs = (spec.timeout ?? 60) * 1000;
  const outcome = await runHookProcess({
    command: spec.command,
    cwd: spec.cwd,
    stdin: JSON.stringify({
      session_id: input.sessionId,
      cwd: spec.cwd,
      hook_event_name: spec.event,
      ...(input.turnId !== undefined ? { turn_id: input.turnId } : {}),
      ...extra,
    }),
    timeoutMs,
    sandbox: spec.sandbox,
  });
  const failed = failure(name, outcome, timeoutMs);
  if (failed) return { kind: 'failed', reason: `${failed} (hooks fail closed)` };
  if (outcome.exitCode === 2) return { kind: 'exit2', stderr: outcome.stderr.trim().slice(0, 4000) };
  const answer = parseAnswer(outcome.stdout);
  if (answer === 'nonsense') {
    // SessionStart takes plain text on stdout as context, as the familiar shape does.
    if (options.plainText) return { kind: 'text', stdout: outcome.stdout.trim().slice(0, 10_000) };
    return { kind: 'failed', reason: `${name} printed output that is not a JSON object (hooks fail closed)` };
  }
  return { kind: 'answered', answer, stdout: outcome.stdout };
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const contextOf = (answer: JsonAnswer | undefined): string | undefined =>
  textOf((answer?.hookSpecificOutput as JsonAnswer | undefined)?.additionalContext);

/** The hooks of `event` whose matcher selects `value` (a source, a reason, a trigger, a notification type). */
function selected(specs: readonly CommandHookSpec[], event: CommandHookSpec['event'], value?: string) {
  return specs.filter(
    (spec) => spec.event === event && (value === undefined || hookMatcherSelects(spec.matcher, value)),
  );
}

/** Stop and SubagentStop: exit 2 or `{"decision": "block"}` sends the reason back; a failure ends the turn failed. */
async function stopVerdict(
  specs: readonly CommandHookSpec[],
  input: TurnHookInput & { continued: number; lastText: string },
  extra: Record<string, unknown>,
): Promise<StopVerdict> {
  for (const spec of specs) {
    const ran = await run(spec, input, {
      stop_hook_active: input.continued > 0,
      last_assistant_message: input.lastText,
      ...extra,
    });
    if (ran.kind === 'failed') return { failure: ran.reason };
    if (ran.kind === 'exit2') return { continueWith: ran.stderr || `${hookName(spec)} asked to continue` };
    if (ran.kind === 'answered' && ran.answer?.decision === 'block')
      return { continueWith: textOf(ran.answer.reason) ?? `${hookName(spec)} asked to continue` };
  }
  return {};
}

/** Runs hooks that cannot change anything; says which failed (exit 2 included: its stderr is for the person). */
async function sideEffects(
  specs: readonly CommandHookSpec[],
  input: SessionHookInput,
  extra: Record<string, unknown>,
): Promise<{ failure?: string }> {
  const failures: string[] = [];
  for (const spec of specs) {
    const ran = await run(spec, input, extra, { plainText: true });
    if (ran.kind === 'failed') failures.push(ran.reason.replace(/ \(hooks fail closed\)$/, ''));
    if (ran.kind === 'exit2') failures.push(`${hookName(spec)} exited 2${ran.stderr ? `: ${ran.stderr}` : ''}`);
  }
  return failures.length > 0 ? { failure: failures.join('; ') } : {};
}

/**
 * The turn and session `command` handlers of settings files as core's turn hooks, run in order.
 *
 * - UserPromptSubmit gets `prompt`: exit 2 (stderr) or `{"decision": "block", "reason"}` blocks
 *   the prompt; `hookSpecificOutput.additionalContext` is added to it.
 * - Stop (and SubagentStop, for a subagent's turn, with `agent_id`) gets `stop_hook_active` and
 *   `last_assistant_message`: exit 2 (stderr) or `{"decision": "block", "reason"}` sends the
 *   reason to the model and the turn goes on.
 * - SessionStart (matcher over `source`: `startup`, `resume`) gets `source`; its
 *   `additionalContext`, or plain text on stdout, is added to the session's first prompt; exit 2
 *   cannot block (its stderr is said to the person).
 * - PreCompact (matcher over `trigger`: `manual`, `auto`) gets `trigger` and
 *   `custom_instructions`: exit 2 or `{"decision": "block"}` keeps the view uncompacted;
 *   `additionalContext` is added to the summary request's instructions.
 * - SessionEnd (matcher over `reason`) and Notification (matcher over `notification_type`, with
 *   `message`) cannot change anything; a failure is said to the person.
 *
 * A hook that crashes, times out or prints nonsense blocks the prompt, ends the turn failed, or
 * blocks the compaction, and says which hook.
 */
export function commandTurnHooks(specs: readonly CommandHookSpec[]): TurnHooks {
  const has = (event: CommandHookSpec['event']) => specs.some((spec) => spec.event === event);
  return {
    ...(has('UserPromptSubmit')
      ? {
          async promptSubmitted(input) {
            const contexts: string[] = [];
            for (const spec of selected(specs, 'UserPromptSubmit')) {
              const ran = await run(spec, input, { prompt: input.prompt });
              if (ran.kind === 'failed') return { block: ran.reason };
              if (ran.kind === 'exit2') return { block: ran.stderr || `${hookName(spec)} blocked the prompt` };
              if (ran.kind === 'text') continue;
              const answer = ran.answer ?? {};
              if (answer.decision === 'block')
                return { block: textOf(answer.reason) ?? `${hookName(spec)} blocked the prompt` };
              const context = contextOf(answer);
              if (context) contexts.push(context);
            }
            return contexts.length > 0 ? { context: contexts.join('\n') } : {};
          },
        }
      : {}),
    ...(has('Stop') ? { stopping: (input) => stopVerdict(selected(specs, 'Stop'), input, {}) } : {}),
    ...(has('SubagentStop')
      ? {
          subagentStopping: (input) =>
            stopVerdict(selected(specs, 'SubagentStop'), input, { agent_id: input.sessionId }),
        }
      : {}),
    ...(has('SessionStart')
      ? {
          async sessionStarted(input) {
            const contexts: string[] = [];
            const notices: string[] = [];
            for (const spec of selected(specs, 'SessionStart', input.source)) {
              const ran = await run(spec, input, { source: input.source }, { plainText: true });
              if (ran.kind === 'failed') return { failure: ran.reason };
              if (ran.kind === 'exit2')
                notices.push(`${hookName(spec)} exited 2${ran.stderr ? `: ${ran.stderr}` : ''}`);
              if (ran.kind === 'text' && ran.stdout) contexts.push(ran.stdout);
              const context = ran.kind === 'answered' ? contextOf(ran.answer) : undefined;
              if (context) contexts.push(context);
            }
            return {
              ...(contexts.length > 0 ? { context: contexts.join('\n') } : {}),
              ...(notices.length > 0 ? { notice: notices.join('; ') } : {}),
            };
          },
        }
      : {}),
    ...(has('SessionEnd')
      ? {
          sessionEnded: (input) =>
            sideEffects(selected(specs, 'SessionEnd', input.reason), input, { reason: input.reason }),
        }
      : {}),
    ...(has('Notification')
      ? {
          notified: (input) =>
            sideEffects(selected(specs, 'Notification', input.notificationType), input, {
              notification_type: input.notificationType,
              message: input.message,
            }),
        }
      : {}),
    ...(has('PreCompact')
      ? {
          async compacting(input) {
            const instructions: string[] = [];
            for (const spec of selected(specs, 'PreCompact', input.trigger)) {
              const ran = await run(spec, input, { trigger: input.trigger, custom_instructions: '' });
              if (ran.kind === 'failed') return { block: ran.reason };
              if (ran.kind === 'exit2') return { block: ran.stderr || `${hookName(spec)} blocked the compaction` };
              if (ran.kind !== 'answered') continue;
              if (ran.answer?.decision === 'block')
                return { block: textOf(ran.answer.reason) ?? `${hookName(spec)} blocked the compaction` };
              const context = contextOf(ran.answer);
              if (context) instructions.push(context);
            }
            return instructions.length > 0 ? { instructions: instructions.join('\n') } : {};
          },
        }
      : {}),
  };
}
