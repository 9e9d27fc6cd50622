import { simpleCommandsIn } from '@clawsmith/command-sandbox';
import { TOOL_RESULT_CODES, toolDenied, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { hookInput, runHooks } from '../permissions/hooks.js';
import { decidePermission, type PermissionDecision } from '../permissions/permission-policy.js';
import { requestPaths } from '../permissions/request-paths.js';
import type { ToolDecisionEvent } from '@clawsmith/session-protocol';
import type { NewSessionEvent } from '../store/session-records.js';
import type { ApprovalAnswer } from '../permissions/approval-handler.js';
import type { TurnContext } from './turn-context.js';
import type { CallEventWriter } from './event-writer.js';
import { safeSummary, type ReadyCall } from './prepare-call.js';

/**
 * The verdict on a ready call: run it, or the denied result; with the decision events not yet
 * written (the caller hands them to its {@link CallEventWriter} with `tool.started` or
 * `tool.completed`).
 */
export type Judgment =
  | {
      readonly allowed: true;
      readonly decisions: NewSessionEvent[];
      /** The call as it runs: the input a hook updated, the paths it touches resolved once. */
      readonly ready: ReadyCall;
      /** What hooks added for the model, appended to the result. */
      readonly contexts: readonly string[];
    }
  | { readonly allowed: false; readonly result: ToolExecutionResult; readonly decisions: NewSessionEvent[] };

function decisionEvent(
  turn: TurnContext,
  ready: ReadyCall,
  stage: ToolDecisionEvent['stage'],
  action: ToolDecisionEvent['action'],
  reason: string,
  judged: Pick<ToolDecisionEvent, 'paths' | 'commands' | 'inputUpdatedBy'> = {},
): NewSessionEvent {
  return {
    type: 'tool.decision',
    turnId: turn.turnId,
    toolCallId: ready.call.id,
    toolName: ready.call.name,
    stage,
    action,
    reason,
    ...judged,
  };
}

/** What the permission stage judged, for the record: the resolved paths and each simple command. */
function judgedOf(
  ready: ReadyCall,
  inputUpdatedBy: string | undefined,
): Pick<ToolDecisionEvent, 'paths' | 'commands' | 'inputUpdatedBy'> {
  const paths = [...new Set((ready.paths ?? []).map((path) => path.forms.at(-1) ?? ''))];
  const command = (ready.input as { command?: unknown } | null)?.command;
  const commands =
    typeof command === 'string'
      ? (simpleCommandsIn(command) ?? []).map((found) => found.words.map((word) => word ?? '?').join(' '))
      : [];
  return {
    ...(paths.length > 0 ? { paths } : {}),
    ...(commands.length > 0 ? { commands } : {}),
    ...(inputUpdatedBy ? { inputUpdatedBy } : {}),
  };
}

/**
 * Asks a person, after writing `decided` (the call's decisions so far) and the request. Returns
 * the answer with the events not written yet: `approval.resolved`, or `decided` when nobody
 * can be asked.
 */
async function askPerson(
  turn: TurnContext,
  ready: ReadyCall,
  reason: string,
  decided: readonly NewSessionEvent[],
  events: CallEventWriter,
): Promise<{ answer: ApprovalAnswer; reason: string; unwritten: readonly NewSessionEvent[] }> {
  if (!turn.permissions.approvalHandler)
    return {
      answer: 'deny',
      unwritten: decided,
      reason: `${reason}; ${turn.permissions.unattendedReason ?? 'no one can approve in a non-interactive run, so it is denied (choose another --permission-mode or add a rule)'}`,
    };
  const pending = await turn.core.store.addApproval({
    sessionId: turn.session.id,
    turnId: turn.turnId,
    toolCallId: ready.call.id,
    toolName: ready.call.name,
    summary: ready.summary,
    risk: ready.entry.security.risk,
    reason,
  });
  // Everything deferred, the decisions so far and the request are on disk before anyone is asked.
  await events.writeNow([
    ...decided,
    {
      type: 'approval.requested',
      turnId: turn.turnId,
      approvalId: pending.id,
      toolCallId: ready.call.id,
      toolName: ready.call.name,
      summary: ready.summary,
      risk: ready.entry.security.risk,
      reason,
    },
  ]);
  let answer: ApprovalAnswer;
  let handlerFailure: string | undefined;
  try {
    answer = await turn.permissions.approvalHandler(
      {
        approvalId: pending.id,
        sessionId: turn.session.id,
        turnId: turn.turnId,
        toolCallId: ready.call.id,
        toolName: ready.call.name,
        summary: ready.summary,
        input: ready.input,
        risk: ready.entry.security.risk,
        capabilities: ready.entry.security.capabilities,
        reason,
      },
      turn.signal,
    );
    if (answer !== 'allow' && answer !== 'allow-session' && answer !== 'deny') {
      handlerFailure = `it answered ${JSON.stringify(String(answer)).slice(0, 60)}, not allow, deny or allow-session`;
      answer = 'deny';
    }
  } catch (error) {
    // Still a denial (fail closed), but never attributed to the person.
    handlerFailure = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
    answer = 'deny';
  }
  await turn.core.store.removeApproval(pending.id);
  const resolved: NewSessionEvent = {
    type: 'approval.resolved',
    turnId: turn.turnId,
    approvalId: pending.id,
    toolCallId: ready.call.id,
    answer,
    ...(handlerFailure !== undefined ? { handlerFailed: true } : {}),
  };
  if (answer === 'allow-session') turn.permissions.sessionAllowances.add(ready.call.name);
  return {
    answer,
    unwritten: [resolved],
    reason:
      handlerFailure !== undefined
        ? `approval handler failed: ${handlerFailure}`
        : answer === 'deny'
          ? 'the person declined'
          : answer === 'allow-session'
            ? `allowed for this session by the person`
            : 'allowed by the person',
  };
}

/**
 * Hooks first (they see the effective risk and capabilities; the first deny wins; a failing hook
 * denies), then the permission policy, then a person when either asks. Every decision is
 * written to the event log with its reason: the returned decisions are not written yet. Before
 * a hook runs or a person is asked, `events` writes what it holds (see {@link CallEventWriter}).
 */
export async function judgeCall(turn: TurnContext, call: ReadyCall, events: CallEventWriter): Promise<Judgment> {
  let ready = call;
  const security = ready.entry.security;
  if (turn.permissions.hooks.length > 0) await events.flush();
  const verdict = await runHooks(
    turn.permissions.hooks,
    hookInput(
      {
        toolName: ready.call.name,
        input: ready.input,
        summary: ready.summary,
        sessionId: turn.session.id,
        turnId: turn.turnId,
        toolCallId: ready.call.id,
      },
      security,
    ),
  );
  const decisions: NewSessionEvent[] = [];
  if (turn.permissions.hooks.length > 0) {
    decisions.push(
      decisionEvent(
        turn,
        ready,
        'hook',
        verdict.outcome,
        verdict.outcome === 'allow' ? 'every hook allowed' : `${verdict.hook}: ${verdict.reason}`,
      ),
    );
  }
  if (verdict.outcome === 'deny') {
    return {
      allowed: false,
      decisions,
      result: toolDenied(
        TOOL_RESULT_CODES.hookDenied,
        `A hook denied ${ready.call.name}: ${verdict.reason}. Do not retry this call unchanged.`,
      ),
    };
  }
  const contexts = verdict.contexts;
  if (verdict.updatedInput) {
    // The updated input is judged and run only if the tool's own schema accepts it.
    const validated = ready.entry.tool.inputSchema.safeParse(verdict.updatedInput.input);
    if (!validated.success) {
      const reason = `hook ${verdict.updatedInput.hook} gave an updatedInput that does not match the schema of ${ready.call.name}; denied (hooks fail closed)`;
      decisions.push(decisionEvent(turn, ready, 'hook', 'deny', reason));
      return {
        allowed: false,
        decisions,
        result: toolDenied(TOOL_RESULT_CODES.hookDenied, `A hook denied ${ready.call.name}: ${reason}.`),
      };
    }
    ready = { ...ready, input: validated.data, summary: safeSummary(ready.entry, validated.data) };
  }
  // What the call touches is resolved once, for the input it runs with: rules, exclusions and the run use it.
  ready = { ...ready, paths: requestPaths(ready.entry.tool.pathArguments, ready.input, turn.session.workspaceRoot) };
  let decision: PermissionDecision = decidePermission(turn.permissions.mode, turn.permissions.rules, {
    toolName: ready.call.name,
    input: ready.input,
    security,
    paths: ready.paths!,
  });
  if (
    decision.action !== 'deny' &&
    turn.permissions.sessionAllowances.has(ready.call.name) &&
    turn.permissions.mode !== 'read-only'
  ) {
    decision =
      decision.action === 'ask'
        ? { action: 'allow', reason: `allowed for this session by the person (${decision.reason})` }
        : decision;
  }
  if (verdict.outcome === 'ask' && decision.action === 'allow')
    decision = { action: 'ask', reason: `${verdict.hook}: ${verdict.reason}` };
  decisions.push(
    decisionEvent(
      turn,
      ready,
      'permission',
      decision.action,
      decision.reason,
      judgedOf(ready, verdict.updatedInput?.hook),
    ),
  );
  if (decision.action === 'deny') {
    return {
      allowed: false,
      decisions,
      result: toolDenied(
        TOOL_RESULT_CODES.permissionDenied,
        `Permission denied for ${ready.call.name}: ${decision.reason}.`,
      ),
    };
  }
  if (decision.action === 'ask') {
    const { answer, reason, unwritten } = await askPerson(turn, ready, decision.reason, decisions, events);
    const after = [...unwritten, decisionEvent(turn, ready, 'approval', answer === 'deny' ? 'deny' : 'allow', reason)];
    if (answer === 'deny')
      return {
        allowed: false,
        decisions: after,
        result: toolDenied(TOOL_RESULT_CODES.permissionDenied, `Permission denied for ${ready.call.name}: ${reason}.`),
      };
    return { allowed: true, decisions: after, ready, contexts };
  }
  return { allowed: true, decisions, ready, contexts };
}
