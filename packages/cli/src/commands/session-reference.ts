import type { AgentCore, SessionRecord } from '@clawsmith/core';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';

/**
 * The session id `--session` names: an id as given, or `last`, the most recently active session
 * whose workspace is `workspaceRoot`. `last` with no session there fails with `session_not_found`.
 */
export async function resolveSessionReference(
  core: AgentCore,
  reference: string,
  workspaceRoot: string,
): Promise<string> {
  if (reference !== 'last') return reference;
  // listSessions is newest first (by last activity); subagents' sessions are not the person's.
  const children = new Set((await core.listDelegations()).map((child) => child.childSessionId));
  const newest = (await core.listSessions()).find(
    (session) => session.workspaceRoot === workspaceRoot && !children.has(session.id),
  );
  if (newest) return newest.id;
  throw new CliError(
    'session_not_found',
    `No session in ${workspaceRoot} yet, so --session last names none; start one with 'clawsmith' or 'clawsmith run', or list them with 'clawsmith sessions'.`,
  );
}

/**
 * Refuses `--workspace DIR` given together with `--session` of a session that works elsewhere:
 * a session always runs in the workspace it was created in.
 */
export function checkSessionWorkspace(session: SessionRecord, requestedWorkspace: string | undefined): void {
  if (requestedWorkspace === undefined || requestedWorkspace === session.workspaceRoot) return;
  throw new CliError(
    'workspace_mismatch',
    `Session ${session.id} works in ${session.workspaceRoot}, not in ${requestedWorkspace}. Drop --workspace to continue it there, or drop --session to start a new session in ${requestedWorkspace}.`,
    EXIT_CODES.usage,
  );
}
