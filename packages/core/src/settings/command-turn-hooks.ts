import type { TurnHookInput, TurnHooks } from '../turn-hooks.js';
import { failure, hookName, parseAnswer, type CommandHookSpec, type JsonAnswer } from './command-hook.js';
import { runHookProcess } from './hook-process.js';

type Ran =
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'exit2'; readonly stderr: string }
  | { readonly kind: 'answered'; readonly answer: JsonAnswer | undefined; readonly stdout: string };

async function run(spec: CommandHookSpec, input: TurnHookInput, extra: Record<string, unknown>): Promise<Ran> {
  const name = hookName(spec);
  const timeoutMs = (spec.timeout ?? 60) * 1000;
  const outcome = await runHookProcess({
    command: spec.command,
    cwd: spec.cwd,
    stdin: JSON.stringify({
      session_id: input.sessionId,
      cwd: spec.cwd,
      hook_event_name: spec.event,
      turn_id: input.turnId,
      ...extra,
    }),
    timeoutMs,
    sandbox: spec.sandbox,
  });
  const failed = failure(name, outcome, timeoutMs);
  if (failed) return { kind: 'failed', reason: `${failed} (hooks fail closed)` };
  if (outcome.exitCode === 2) return { kind: 'exit2', stderr: outcome.stderr.trim().slice(0, 4000) };
  const answer = parseAnswer(outcome.stdout);
  if (answer === 'nonsense')
    return { kind: 'failed', reason: `${name} printed output that is not a JSON object (hooks fail closed)` };
  return { kind: 'answered', answer, stdout: outcome.stdout };
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The `UserPromptSubmit` and `Stop` command handlers of settings files as core's turn hooks, run
 * in order. UserPromptSubmit gets `prompt` on stdin: exit 2 (stderr) or `{"decision": "block",
 * "reason"}` blocks the prompt; `hookSpecificOutput.additionalContext` is added to it. Stop gets
 * `stop_hook_active` (true once a stop hook sent the turn back) and `last_assistant_message`:
 * exit 2 (stderr) or `{"decision": "block", "reason"}` sends the reason to the model and the turn
 * goes on. A hook that crashes, times out or prints nonsense blocks the prompt, or ends the turn
 * failed, and says which hook.
 */
export function commandTurnHooks(specs: readonly CommandHookSpec[]): TurnHooks {
  const prompts = specs.filter((spec) => spec.event === 'UserPromptSubmit');
  const stops = specs.filter((spec) => spec.event === 'Stop');
  return {
    ...(prompts.length > 0
      ? {
          async promptSubmitted(input) {
            const contexts: string[] = [];
            for (const spec of prompts) {
              const ran = await run(spec, input, { prompt: input.prompt });
              if (ran.kind === 'failed') return { block: ran.reason };
              if (ran.kind === 'exit2') return { block: ran.stderr || `${hookName(spec)} blocked the prompt` };
              const answer = ran.answer ?? {};
              if (answer.decision === 'block')
                return { block: textOf(answer.reason) ?? `${hookName(spec)} blocked the prompt` };
              const context = textOf((answer.hookSpecificOutput as JsonAnswer | undefined)?.additionalContext);
              if (context) contexts.push(context);
            }
            return contexts.length > 0 ? { context: contexts.join('\n') } : {};
          },
        }
      : {}),
    ...(stops.length > 0
      ? {
          async stopping(input) {
            for (const spec of stops) {
              const ran = await run(spec, input, {
                stop_hook_active: input.continued > 0,
                last_assistant_message: input.lastText,
              });
              if (ran.kind === 'failed') return { failure: ran.reason };
              if (ran.kind === 'exit2') return { continueWith: ran.stderr || `${hookName(spec)} asked to continue` };
              if (ran.answer?.decision === 'block')
                return { continueWith: textOf(ran.answer.reason) ?? `${hookName(spec)} asked to continue` };
            }
            return {};
          },
        }
      : {}),
  };
}
