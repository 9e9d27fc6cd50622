import type { CoreServices } from './core-services.js';
import type { SessionStartVerdict, TurnHooks } from './turn-hooks.js';

/**
 * Runs the SessionStart hooks before the first turn this core runs in a session (`startup` when
 * the session has no turns yet, `resume` otherwise) and remembers the session, so its SessionEnd
 * hooks run when the core closes. A session whose start hook failed is not remembered: the next
 * turn asks again.
 */
export async function startSession(
  core: CoreServices,
  session: { readonly id: string; readonly workspaceRoot: string },
  hooks: TurnHooks | undefined,
  hadTurns: boolean,
): Promise<SessionStartVerdict> {
  if (!hooks || core.startedSessions.has(session.id)) return {};
  if (!hooks.sessionStarted && !hooks.sessionEnded) return {};
  const verdict = hooks.sessionStarted
    ? await hooks.sessionStarted({
        sessionId: session.id,
        workspaceRoot: session.workspaceRoot,
        source: hadTurns ? 'resume' : 'startup',
      })
    : {};
  if (verdict.notice) core.hookNotice?.(verdict.notice);
  if (verdict.failure === undefined)
    core.startedSessions.set(session.id, { workspaceRoot: session.workspaceRoot, hooks });
  return verdict;
}

/** Runs the SessionEnd hooks (reason `other`) of every session this core started, once; failures are said, never thrown. */
export async function endSessions(core: CoreServices): Promise<void> {
  const started = [...core.startedSessions.entries()];
  core.startedSessions.clear();
  for (const [sessionId, { workspaceRoot, hooks }] of started) {
    if (!hooks.sessionEnded) continue;
    try {
      const verdict = await hooks.sessionEnded({ sessionId, workspaceRoot, reason: 'other' });
      if (verdict.failure) core.hookNotice?.(verdict.failure);
    } catch (error) {
      core.hookNotice?.(`a SessionEnd hook failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
