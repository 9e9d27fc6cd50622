import type { SessionRecord } from '@clawsmith/core';
import type { SessionSummary } from '../api/api-schemas.js';
import { runsElsewhere } from '../turns/turn-runner.js';
import type { WebContext } from '../web-context.js';

/** A session as the API lists it: its record, last activity and what it is doing. */
export async function summarizeSession(web: WebContext, session: SessionRecord): Promise<SessionSummary> {
  const last = await web.store.getLastTurn(session.id);
  const runningHere = web.turns.runsHere(session.id);
  let status: SessionSummary['status'] = last?.status ?? 'idle';
  if (runningHere || runsElsewhere(last)) status = 'running';
  else if (status === 'running') status = 'interrupted';
  const times = [session.updatedAt, last?.startedAt, last?.completedAt].filter((time): time is string => !!time);
  return {
    id: session.id,
    workspaceRoot: session.workspaceRoot,
    title: session.title,
    parentSessionId: session.parentSessionId,
    forkedAtTurnId: session.forkedAtTurnId,
    createdAt: session.createdAt,
    lastActivityAt: times.sort().at(-1)!,
    status,
    runningHere,
  };
}
