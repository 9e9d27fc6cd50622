import type { DelegationRecord, SessionRecord } from '@clawsmith/core';
import type { SessionSummary } from '../api/api-schemas.js';
import type { WebContext } from '../web-context.js';

/** Subagent links of the whole home, read once per listing. */
export interface DelegationIndex {
  readonly byChild: ReadonlyMap<string, DelegationRecord>;
  readonly byParent: ReadonlyMap<string, readonly DelegationRecord[]>;
}

/** Reads every subagent link of the home. */
export async function delegationIndex(web: WebContext): Promise<DelegationIndex> {
  const records = await web.core.listDelegations();
  const byParent = new Map<string, DelegationRecord[]>();
  for (const record of records)
    byParent.set(record.parentSessionId, [...(byParent.get(record.parentSessionId) ?? []), record]);
  return { byChild: new Map(records.map((record) => [record.childSessionId, record])), byParent };
}

/**
 * A session as the API lists it: its record, last activity, what it is doing, and its subagent
 * links. A listing passes the delegation index and the first prompts it read once for all.
 */
export async function summarizeSession(
  web: WebContext,
  session: SessionRecord,
  delegations?: DelegationIndex,
  firstPrompts?: ReadonlyMap<string, string>,
): Promise<SessionSummary> {
  const links = delegations ?? (await delegationIndex(web));
  const delegation = links.byChild.get(session.id);
  const last = await web.store.getLastTurn(session.id);
  // A listing reads every session's first prompt in one query and passes them in.
  const firstPrompt = last
    ? (firstPrompts ?? (await web.store.listFirstPrompts([session.id]))).get(session.id)
    : undefined;
  const runningHere = web.turns.runsHere(session.id);
  let status: SessionSummary['status'] = last?.status ?? 'idle';
  if (runningHere || (status === 'running' && (await web.store.runsElsewhere(session.id)))) status = 'running';
  else if (status === 'running') status = 'interrupted';
  const times = [session.updatedAt, last?.startedAt, last?.completedAt].filter((time): time is string => !!time);
  return {
    id: session.id,
    workspaceRoot: session.workspaceRoot,
    title: session.title,
    firstPrompt: firstPrompt === undefined ? null : firstPrompt.slice(0, 200),
    parentSessionId: session.parentSessionId,
    forkedAtTurnId: session.forkedAtTurnId,
    createdAt: session.createdAt,
    lastActivityAt: times.sort().at(-1)!,
    status,
    runningHere,
    delegatedBy: delegation
      ? {
          sessionId: delegation.parentSessionId,
          turnId: delegation.parentTurnId,
          toolCallId: delegation.parentToolCallId,
          kind: delegation.kind,
          status: delegation.status,
        }
      : null,
    children: (links.byParent.get(session.id) ?? []).map((child) => ({
      sessionId: child.childSessionId,
      kind: child.kind,
      status: child.status,
      prompt: child.prompt.slice(0, 200),
    })),
  };
}
