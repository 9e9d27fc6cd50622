import { judgeCall as judgeWithHost, type ApprovalAnswer } from '@clawsmith/tool-host';
import { TOOL_RESULT_CODES, toolDenied, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import type { ToolDecisionEvent } from '@clawsmith/session-protocol';
import type { NewSessionEvent } from '../store/session-records.js';
import { newPendingApproval } from '../store/session-approvals.js';
import type { TurnContext } from './turn-context.js';
import type { CallEventWriter } from './event-writer.js';
import type { ReadyCall } from './prepare-call.js';

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
  judged: Pick<ToolDecisionEvent, 'paths' | 'commands' | 'domains' | 'inputUpdatedBy'> = {},
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

/** Runs the Notification hooks (`permission_prompt`); never throws, a failure is said to the person. */
async function notifyPerson(turn: TurnContext, message: string): Promise<void> {
  const notified = turn.turnHooks?.notified;
  if (!notified) return;
  try {
    const verdict = await notified({
      sessionId: turn.session.id,
      workspaceRoot: turn.session.workspaceRoot,
      turnId: turn.turnId,
      notificationType: 'permission_prompt',
      message,
    });
    if (verdict.failure) turn.core.hookNotice?.(verdict.failure);
  } catch (error) {
    turn.core.hookNotice?.(`a Notification hook failed: ${error instanceof Error ? error.message : String(error)}`);
  }
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
  const pending = newPendingApproval({
    sessionId: turn.session.id,
    turnId: turn.turnId,
    toolCallId: ready.call.id,
    toolName: ready.call.name,
    summary: ready.summary,
    risk: ready.entry.security.risk,
    reason,
  });
  // Everything deferred, the decisions so far and the request are on disk before anyone is asked,
  // the request's row in the same transaction as its event (see TurnStep.approval).
  await events.writeWithApproval(pending, [
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
  // Notification hooks tell the person someone waits for them; they run while the person is asked.
  const notifying = notifyPerson(turn, `clawsmith needs your permission to use ${ready.call.name}: ${ready.summary}`);
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
  await notifying;
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
 * The tool host's judgment (hooks, then the permission policy, then what a person allowed for
 * the session), recorded as decision events, then a person when it asks. Every decision is
 * written to the event log with its reason: the returned decisions are not written yet. Before
 * a hook runs or a person is asked, `events` writes what it holds (see {@link CallEventWriter}).
 */
export async function judgeCall(turn: TurnContext, call: ReadyCall, events: CallEventWriter): Promise<Judgment> {
  if (turn.permissions.hooks.length > 0) await events.flush();
  const judgment = await judgeWithHost(
    {
      tool: call.entry.tool,
      security: call.entry.security,
      input: call.input,
      summary: call.summary,
      sessionId: turn.session.id,
      turnId: turn.turnId,
      toolCallId: call.call.id,
      workspaceRoot: turn.session.workspaceRoot,
    },
    {
      mode: turn.permissions.mode,
      rules: turn.permissions.rules,
      hooks: turn.permissions.hooks,
      sessionAllowances: turn.permissions.sessionAllowances,
    },
  );
  const decisions = judgment.decisions.map(({ stage, action, reason, ...judged }) =>
    decisionEvent(turn, call, stage, action, reason, judged),
  );
  if (judgment.denied) return { allowed: false, decisions, result: judgment.denied };
  const ready: ReadyCall = {
    ...call,
    input: judgment.input,
    summary: judgment.summary,
    ...(judgment.paths ? { paths: judgment.paths } : {}),
    ...(judgment.facts ? { facts: judgment.facts } : {}),
  };
  const contexts = judgment.contexts;
  if (judgment.action === 'ask') {
    const { answer, reason, unwritten } = await askPerson(turn, ready, judgment.reason, decisions, events);
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
