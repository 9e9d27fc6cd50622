import type { AgentCore, DelegationRecord, RestoreScope, SessionRecord, TurnRecord } from '@clawsmith/core';
import { z } from 'zod';
import { EXIT_CODES } from '../exit-codes.js';
import { parseCommandOptions } from '../options/command-options.js';
import { oneLine, terminalSafe } from '../terminal/terminal-text.js';
import { terminalStyle, type TerminalStyle } from '../terminal/terminal-style.js';
import { openAgentRuntime, resolveTurn, resolveWorkspace, type AgentRuntime } from './agent-runtime.js';
import { resolveSessionReference } from './session-reference.js';
import { openStoreRuntime, type StoreRuntime } from './store-runtime.js';

type RestorePointSummary = Awaited<ReturnType<AgentCore['listCheckpoints']>>[number];
/**
 * A turn as `checkpoints` shows it: live, or with `undoneAt` when its conversation was undone,
 * and the workspace paths it changed (from its `turn.completed` manifest) once it has ended.
 */
type ListedTurn = TurnRecord & { readonly undoneAt?: string; readonly changedPaths?: readonly string[] };

/** How many turns a session has and how its latest one stands, as `sessions` shows it. */
export interface SessionTurnSummary {
  readonly turnCount: number;
  readonly lastTurnStatus: TurnRecord['status'] | null;
}

/** The turn count and latest turn status of each session. */
export async function sessionTurnSummaries(
  core: AgentCore,
  sessions: readonly SessionRecord[],
): Promise<Map<string, SessionTurnSummary>> {
  const summaries = new Map<string, SessionTurnSummary>();
  for (const session of sessions) {
    const turns = await core.listTurns(session.id);
    summaries.set(session.id, { turnCount: turns.length, lastTurnStatus: turns.at(-1)?.status ?? null });
  }
  return summaries;
}

function turnWords(summary: SessionTurnSummary | undefined, style: TerminalStyle): string {
  if (!summary) return '';
  const count = `${summary.turnCount} turn${summary.turnCount === 1 ? '' : 's'}`;
  if (summary.lastTurnStatus === null) return `  ${style.dim(count)}`;
  const status =
    summary.lastTurnStatus === 'completed'
      ? style.green
      : summary.lastTurnStatus === 'running'
        ? style.cyan
        : style.yellow;
  return `  ${status(summary.lastTurnStatus)} ${style.dim(`· ${count}`)}`;
}

const storeOptions = z.object({
  home: z.string().optional(),
  session: z.string().optional(),
  json: z.boolean().optional(),
  at: z.string().optional(),
});
type StoreOptions = z.output<typeof storeOptions>;
/** The commands of one session: commander requires `--session`. */
const sessionStoreOptions = storeOptions.extend({ session: z.string() });

const out = (text: string) => void process.stdout.write(`${text}\n`);

/** Sessions as a person reads them, newest first; a subagent's session is listed under its parent. */
export function sessionLines(
  sessions: readonly SessionRecord[],
  style: TerminalStyle,
  delegations: readonly DelegationRecord[] = [],
  turnSummaries: ReadonlyMap<string, SessionTurnSummary> = new Map(),
): string {
  if (sessions.length === 0)
    return style.dim('No sessions yet. Start one with `clawsmith`, `clawsmith run`, or try `clawsmith demo`.');
  const childrenOf = new Map<string, DelegationRecord[]>();
  for (const child of delegations)
    childrenOf.set(child.parentSessionId, [...(childrenOf.get(child.parentSessionId) ?? []), child]);
  const isChild = new Set(delegations.map((child) => child.childSessionId));
  return sessions
    .filter((session) => !isChild.has(session.id))
    .map((session) => {
      const fork = session.parentSessionId ? style.dim(` (fork of ${session.parentSessionId})`) : '';
      const children = (childrenOf.get(session.id) ?? []).map(
        (child) =>
          `\n  ${style.dim('↳')} ${child.childSessionId}  ${child.kind} ${child.status}  ${oneLine(child.prompt, 60)}`,
      );
      return `${style.bold(session.id)}${turnWords(turnSummaries.get(session.id), style)}  ${session.updatedAt}  ${oneLine(session.title ?? '(untitled)', 60)}${fork}\n  ${style.dim(oneLine(session.workspaceRoot, 200))}${children.join('')}`;
    })
    .join('\n');
}

/** The session's turns for listing restore points: live ones and those whose conversation was undone. */
export async function checkpointTurns(core: AgentCore, sessionId: string): Promise<Map<string, ListedTurn>> {
  const turns = new Map<string, ListedTurn>();
  for (const turn of await core.listUndoneTurns(sessionId)) turns.set(turn.turnId, turn);
  for (const turn of await core.listTurns(sessionId)) turns.set(turn.turnId, turn);
  for (const event of await core.listEvents(sessionId)) {
    const turn = event.type === 'turn.completed' && event.turnId ? turns.get(event.turnId) : undefined;
    if (turn && event.type === 'turn.completed' && event.manifest)
      turns.set(turn.turnId, { ...turn, changedPaths: event.manifest.paths });
  }
  return turns;
}

/** Files listed under a restore point; more are counted, not shown. */
const LISTED_PATHS = 8;

function pathsLine(paths: readonly string[] | undefined, style: TerminalStyle): string {
  if (!paths || paths.length === 0) return '';
  const shown = paths.slice(0, LISTED_PATHS).map((path) => oneLine(path, 120));
  const more = paths.length > LISTED_PATHS ? ` and ${paths.length - LISTED_PATHS} more` : '';
  return `\n    ${style.dim('files:')} ${shown.join(', ')}${more}`;
}

/** Restore points as a person reads them: number, turn id, status, undone flags, prompt, the files the turn changed. */
export function checkpointLines(
  points: readonly RestorePointSummary[],
  turns: ReadonlyMap<string, ListedTurn>,
  style: TerminalStyle,
): string {
  if (points.length === 0) return style.dim('No restore points: this session has no turns yet.');
  return points
    .map((point) => {
      const turn = turns.get(point.turnId);
      const undone = point.undone ? style.yellow(' [files undone]') : '';
      const cut = turn?.undoneAt ? style.yellow(' [conversation undone]') : '';
      return `#${point.sequence} ${style.bold(point.turnId)} ${turn?.status ?? ''}${undone}${cut}  ${oneLine(turn?.prompt ?? '', 60)}${pathsLine(turn?.changedPaths, style)}`;
    })
    .join('\n');
}

async function withRuntime(options: StoreOptions, work: (runtime: AgentRuntime) => Promise<number>): Promise<number> {
  const runtime = await openAgentRuntime({ home: options.home });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

/** For the commands that touch the store and never the workspace: a core without tools, sandbox or language servers. */
async function withStore(options: StoreOptions, work: (runtime: StoreRuntime) => Promise<number>): Promise<number> {
  const runtime = await openStoreRuntime({ home: options.home });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

/** `--session` of a store command: an id, or `last` (the newest session of the current folder). */
function sessionOf(core: AgentCore, reference: string | undefined): Promise<string> {
  return resolveSessionReference(core, reference ?? '', resolveWorkspace('.'));
}

/** `clawsmith sessions [--json]`. */
export async function sessionsCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(storeOptions, rawOptions, 'sessions');
  return withStore(options, async ({ core }) => {
    const sessions = await core.listSessions();
    const delegations = await core.listDelegations();
    const turnSummaries = await sessionTurnSummaries(core, sessions);
    if (options.json) {
      const delegatedBy = new Map(delegations.map((child) => [child.childSessionId, child]));
      for (const session of sessions) {
        const child = delegatedBy.get(session.id);
        out(
          JSON.stringify({
            ...session,
            turnCount: turnSummaries.get(session.id)?.turnCount ?? 0,
            lastTurnStatus: turnSummaries.get(session.id)?.lastTurnStatus ?? null,
            delegatedBy: child
              ? {
                  sessionId: child.parentSessionId,
                  turnId: child.parentTurnId,
                  toolCallId: child.parentToolCallId,
                  kind: child.kind,
                  status: child.status,
                }
              : null,
          }),
        );
      }
      return EXIT_CODES.ok;
    }
    out(sessionLines(sessions, terminalStyle(process.stdout), delegations, turnSummaries));
    return EXIT_CODES.ok;
  });
}

/** `clawsmith checkpoints --session ID [--json]`: one restore point per turn, oldest first. */
export async function checkpointsCommand(rawOptions: Record<string, unknown>): Promise<number> {
  const options = parseCommandOptions(sessionStoreOptions, rawOptions, 'checkpoints');
  return withStore(options, async ({ core }) => {
    const sessionId = await sessionOf(core, options.session);
    const points = await core.listCheckpoints(sessionId);
    const turns = await checkpointTurns(core, sessionId);
    if (options.json) {
      for (const point of points)
        out(
          JSON.stringify({
            ...point,
            prompt: turns.get(point.turnId)?.prompt ?? null,
            status: turns.get(point.turnId)?.status ?? null,
            conversationUndone: turns.get(point.turnId)?.undoneAt !== undefined,
            changedPaths: turns.get(point.turnId)?.changedPaths ?? [],
          }),
        );
      return EXIT_CODES.ok;
    }
    out(checkpointLines(points, turns, terminalStyle(process.stdout)));
    return EXIT_CODES.ok;
  });
}

/** `clawsmith undo files|session|all TURN --session ID [--json]`. A conflict exits 3 and lists the paths. */
export function undoCommand(scope: RestoreScope) {
  return async (rawOptions: Record<string, unknown>, _command: unknown, turnReference?: string): Promise<number> => {
    const options = parseCommandOptions(sessionStoreOptions, rawOptions, `undo ${scope}`);
    return withRuntime(options, async ({ core }) => {
      const sessionId = await sessionOf(core, options.session);
      const turnId = await resolveTurn(core, sessionId, turnReference ?? '');
      const result = await core.restore(sessionId, turnId, scope);
      if (options.json) {
        out(JSON.stringify(result));
        return EXIT_CODES.ok;
      }
      const lines = [`Undid turn ${turnId} (${scope}).`];
      if (scope !== 'session') {
        if (result.restoredPaths.length === 0) lines.push('  no files to put back');
        for (const path of result.restoredPaths) lines.push(`  restored ${terminalSafe(path)}`);
      }
      if (result.messageCount !== undefined) lines.push(`  the conversation now has ${result.messageCount} message(s)`);
      out(lines.join('\n'));
      return EXIT_CODES.ok;
    });
  };
}

/** `clawsmith undo diff TURN PATH --session ID`: the unified diff of one file in one turn. */
export async function diffCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  turnReference?: string,
  path?: string,
): Promise<number> {
  const options = parseCommandOptions(sessionStoreOptions, rawOptions, 'undo diff');
  return withStore(options, async ({ core }) => {
    const sessionId = await sessionOf(core, options.session);
    const turnId = await resolveTurn(core, sessionId, turnReference ?? '');
    const diff = await core.diff(sessionId, turnId, path ?? '');
    out(formatDiff(diff));
    return EXIT_CODES.ok;
  });
}

/** A file diff as text: a header, then the unified diff (sanitised), or why there is none. */
export function formatDiff(diff: {
  path: string;
  change: string;
  binary: boolean;
  unifiedDiff: string;
  diffTruncated: boolean;
}): string {
  const header = `${terminalSafe(diff.path)} (${diff.change})`;
  if (diff.binary) return `${header}: binary, no text diff`;
  const body = terminalSafe(diff.unifiedDiff).replace(/\n$/, '');
  return `${header}\n${body === '' ? '(no text changes)' : body}${diff.diffTruncated ? '\n[diff cut at 64 KiB]' : ''}`;
}

/** `clawsmith fork SESSION [--at TURN]`. */
export async function forkCommand(
  rawOptions: Record<string, unknown>,
  _command: unknown,
  sessionId?: string,
): Promise<number> {
  const options = parseCommandOptions(storeOptions, rawOptions, 'fork');
  return withStore(options, async ({ core }) => {
    const parent = await sessionOf(core, sessionId);
    await core.openSession(parent);
    const at = options.at === undefined ? undefined : await resolveTurn(core, parent, options.at);
    const child = await core.fork(parent, at === undefined ? {} : { atTurnId: at });
    if (options.json) out(JSON.stringify(child));
    else
      out(
        `Forked ${parent}${at ? ` after turn ${at}` : ''} into ${child.id}\nContinue it with: clawsmith --session ${child.id}`,
      );
    return EXIT_CODES.ok;
  });
}
