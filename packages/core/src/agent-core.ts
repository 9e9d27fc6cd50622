import { createReadArtifactTool } from '@clawsmith/artifacts';
import type { FileDiff, RestorePointSummary } from '@clawsmith/checkpoints';
import { createBackgroundCommandTools, settleCaptureFolders } from '@clawsmith/command-sandbox';
import type { ModelMessage } from '@clawsmith/providers';
import type { AgentCoreOptions, RestoreScope, RunTurnOptions, TurnResult } from './agent-core-options.js';
import type { CoreServices } from './core-services.js';
import {
  describeTools,
  runDirectCall,
  type DirectToolCall,
  type DirectToolCallResult,
  type ToolDescription,
} from './direct-calls.js';
import type { ToolSource } from '@clawsmith/tool-host';
import { recoverSession } from './recovery.js';
import { assertHomeOutsideWorkspace } from './home-placement.js';
import { compactSession, modelView, type CompactionResult } from './context/session-compaction.js';
import { resolveContextWindow } from './context/context-window.js';
import { TokenEstimator } from './context/token-estimator.js';
import { forkSession, restoreTurn, type RestoreResult } from './restore.js';
import { SessionActivations } from './session-activations.js';
import { createTodoTools } from './session-tools/todo-tools.js';
import type { SessionEvent, SessionRecord, TodoItem, TurnRecord, UndoneTurnRecord } from './store/session-records.js';
import type { SessionReader } from './store/session-reader.js';
import { openSessionChangeFeed, type SessionChangeFeed } from './store/session-change-feed.js';
import type { ApprovalBroker } from './permissions/approval-broker.js';
import { SessionStore, type SessionEventListener } from './store/session-store.js';
import { RetentionSchedule } from './retention/retention-schedule.js';
import { deleteSession, type SessionDeletion } from './session-deletion.js';
import { runTurn } from './turn-loop.js';
import { endSessions } from './session-hooks.js';
import { createDelegation } from './subagents/delegation.js';
import { DelegationStore, type DelegationRecord } from './subagents/delegation-store.js';
import { composeTools } from './tool-composition.js';
import { resolveTurnLease, sessionRunsElsewhere } from './turn-claims/session-claim.js';
import { createTurnOwner } from './turn-claims/turn-owner.js';

/** The agent runtime: a frozen tool table, the session store, and the turn loop. */
export interface AgentCore {
  /** Names of every tool in the frozen table, in table order. */
  readonly toolNames: readonly string[];
  /** Tokens the model reads and writes in one request, as core plans requests against them. */
  readonly contextWindowTokens: number;
  /**
   * The home's sessions as a front end reads them (the list, one session's events, turns,
   * approvals and todos) and its titles: the one door a web server or editor bridge needs besides
   * the core's own methods.
   */
  readonly sessions: SessionReader;
  /** Starts an empty session working in `workspaceRoot` (a real folder; its real path is kept). */
  createSession(options: { workspaceRoot: string; title?: string }): Promise<SessionRecord>;
  /** Opens a session, closing what a crashed process left open (see recovery). */
  openSession(sessionId: string): Promise<SessionRecord>;
  /** Every session of the home, the most recently active first. */
  listSessions(): Promise<SessionRecord[]>;
  /**
   * Runs one turn: the prompt, model requests and tool calls until the model answers without
   * calls, the step limit, cancellation or a failure. One restore point covers the turn's changes.
   * A turn that fails resolves with `status: 'failed'` and `error`; it does not throw.
   */
  runTurn(options: RunTurnOptions): Promise<TurnResult>;
  /**
   * Puts the session back to before `turnId`: its files (`files`), its conversation
   * (`conversation`) or both. Every later turn is undone with it; a file changed since by someone
   * else is a conflict, and nothing is written then.
   */
  restore(sessionId: string, turnId: string, scope: RestoreScope): Promise<RestoreResult>;
  /** A new session with this one's conversation, up to and including `atTurnId` (default: all of it). */
  fork(sessionId: string, options?: { atTurnId?: string }): Promise<SessionRecord>;
  /** The session's turns, oldest first, without those a session restore undid. */
  listTurns(sessionId: string): Promise<TurnRecord[]>;
  /** Turns whose conversation a session restore undid (they are no longer in `listTurns`). */
  listUndoneTurns(sessionId: string): Promise<UndoneTurnRecord[]>;
  /** The conversation the model sees next, oldest first (compacted messages as their summary). */
  listMessages(sessionId: string): Promise<ModelMessage[]>;
  /** The session's event log in order, after `afterSequence` when given (for catching up). */
  listEvents(sessionId: string, options?: { afterSequence?: number }): Promise<SessionEvent[]>;
  /** The session's todo list as the model last wrote it. */
  getTodos(sessionId: string): Promise<TodoItem[]>;
  /** The session's restore points, oldest first, with their manifests and undone flags. */
  listCheckpoints(sessionId: string): Promise<RestorePointSummary[]>;
  /** Before and after text of one file changed by a turn (at most 64 KiB each), and a unified diff. */
  diff(sessionId: string, turnId: string, path: string): Promise<FileDiff>;
  /** Follows every event as it is persisted; returns the unsubscribe function. */
  subscribe(listener: SessionEventListener): () => void;
  /**
   * Opens a feed that wakes watchers of a session when its events change, whoever changed them:
   * this core, another process on the home, or (on PostgreSQL, through `LISTEN`/`NOTIFY`) a
   * process on another machine. On SQLite it looks for other processes' commits every
   * `pollIntervalMs` (default 25 ms). Close it when done.
   */
  openChangeFeed(options?: { readonly pollIntervalMs?: number | undefined }): Promise<SessionChangeFeed>;
  /**
   * The broker given as `approvals`, through which a front end lists and answers the approvals
   * this core's turns wait for; undefined when the core was given none.
   */
  readonly approvals: ApprovalBroker | undefined;
  /**
   * Runs one tool call without a model (an MCP client's call) through the whole lifecycle, as a
   * turn of its own with its own restore point. Calls of one session must not overlap
   * (`turn_in_progress`).
   */
  callTool(call: DirectToolCall): Promise<DirectToolCallResult>;
  /** The tools a session can call now (`visible`, the default) or every tool in the table (`all`). */
  describeTools(sessionId: string, which?: 'visible' | 'all'): Promise<ToolDescription[]>;
  /** Child sessions (subagents) with the session, turn and call that delegated them; of one parent, or all. */
  listDelegations(parentSessionId?: string): Promise<DelegationRecord[]>;
  /**
   * Deletes a session with its events, messages, restore points, artifacts and background
   * commands. Refused with `session_busy` while a live process runs one of its turns.
   */
  deleteSession(sessionId: string): Promise<SessionDeletion>;
  /**
   * Compacts the model's view of a session now (`/compact`): old tool results become stubs, then
   * older messages are summarised when that is not enough. The stored messages and events are
   * unchanged; a `context.compacted` event records it. Refused with `turn_in_progress` during a turn.
   */
  compact(sessionId: string): Promise<CompactionResult>;
  /** The messages the next model request of a session is built from (its compactions applied). */
  modelView(sessionId: string): Promise<ModelMessage[]>;
  /** Waits for a retention run in progress, then ends the background subagents and background commands of every session this core ran, and waits for run_command's capture folders to be removed. */
  close(): Promise<void>;
}

/** The tool sources of a core in table order: base, session, artifacts, background commands, extensions. */
function toolSources(options: AgentCoreOptions, store: SessionStore): ToolSource[] {
  const sources: ToolSource[] = [
    { source: 'builtin', tools: options.builtinTools },
    {
      source: 'session',
      tools: createTodoTools(
        store,
        async (sessionId, todos) => void (await store.appendEvent(sessionId, { type: 'todos.updated', todos })),
      ),
    },
  ];
  if (options.artifacts) sources.push({ source: 'artifacts', tools: [createReadArtifactTool(options.artifacts)] });
  if (options.commands)
    sources.push({ source: 'command-service', tools: createBackgroundCommandTools(options.commands) });
  for (const extension of options.extensions ?? []) sources.push(extension);
  return sources;
}

/**
 * Composes the services into an agent. The tool table is built here, once: base tools, the
 * session tools, `read_artifact` with an artifact store, the background command tools with a
 * command service, extension tools, and `search_tools` when any tool is deferred. A duplicate
 * name is a startup error naming both sources; nothing can be added afterwards.
 */
export function createAgentCore(options: AgentCoreOptions): AgentCore {
  if (options.approvals && options.approvalHandler)
    throw new TypeError(
      'createAgentCore takes approvalHandler or approvals (a broker), not both: give the broker alone, and answer through core.approvals.',
    );
  const approvalHandler = options.approvals?.handler ?? options.approvalHandler;
  const store = new SessionStore(options.db);
  const activations = new SessionActivations(store);
  const allowances = new Map<string, Set<string>>();

  const sources = toolSources(options, store);
  const alwaysLoaded = options.alwaysLoadedTools ?? [];
  const delegation = options.delegation ? createDelegation(options.db, options.delegation) : undefined;
  // Children get the table without the delegation tools: a child never delegates.
  const childTools = delegation ? composeTools(sources, alwaysLoaded, activations) : undefined;
  const composed = composeTools(
    delegation ? [...sources, { source: 'subagents', tools: delegation.tools }] : sources,
    alwaysLoaded,
    activations,
  );
  const { table, catalog, requestTools } = composed;

  const services: CoreServices = {
    requestTools,
    store,
    checkpoints: options.checkpoints,
    ...(options.artifacts ? { artifacts: options.artifacts } : {}),
    provider: options.provider,
    ...(options.homeFolder ? { homeFolder: options.homeFolder } : {}),
    table,
    catalog,
    activationFor: (sessionId) => activations.load(sessionId),
    permissions: {
      mode: options.permissionMode ?? 'default',
      rules: options.rules ?? [],
      hooks: options.hooks ?? [],
      ...(options.resultHooks ? { resultHooks: options.resultHooks } : {}),
      ...(approvalHandler ? { approvalHandler } : {}),
    },
    sessionAllowances: (sessionId) => {
      let set = allowances.get(sessionId);
      if (!set) allowances.set(sessionId, (set = new Set()));
      return set;
    },
    maxSteps: options.maxSteps ?? 50,
    context: {
      window: resolveContextWindow(
        options.provider.model,
        options.contextWindow,
        process.env,
        options.provider.contextWindow,
      ),
      estimator: new TokenEstimator(),
      ...(options.maxTurnTokens !== undefined ? { maxTurnTokens: options.maxTurnTokens } : {}),
      ...(options.maxSessionTokens !== undefined ? { maxSessionTokens: options.maxSessionTokens } : {}),
    },
    inlineContentLimit: options.inlineContentLimit ?? 50_000,
    cancelGraceMs: options.cancelGraceMs ?? 2_000,
    ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
    runningSessions: new Set(),
    owner: createTurnOwner(options.hostId),
    lease: resolveTurnLease(options.turnLease),
    startedSessions: new Map(),
    ...(options.onHookNotice ? { hookNotice: options.onHookNotice } : {}),
    ...(options.turnHooks ? { turnHooks: options.turnHooks } : {}),
    ...(delegation ? { subagents: delegation.hooks } : {}),
    ...(options.traceContext ? { traceContext: options.traceContext } : {}),
  };
  if (delegation && childTools) delegation.bind(services, childTools);
  const touchedSessions = new Set<string>();
  const retention =
    options.retention === false
      ? undefined
      : new RetentionSchedule(
          {
            db: options.db,
            store,
            checkpoints: options.checkpoints,
            ...(options.artifacts ? { artifacts: options.artifacts } : {}),
          },
          options.retention ?? {},
        );

  const sessions: SessionReader = Object.freeze({
    requireSession: (sessionId: string) => store.requireSession(sessionId),
    listSessions: (page?: { limit?: number; offset?: number }) => store.listSessions(page),
    renameSession: (sessionId: string, title: string) => store.renameSession(sessionId, title),
    listMessages: (sessionId: string) => store.listMessages(sessionId),
    listEvents: (sessionId: string, range?: { afterSequence?: number; turnId?: string; limit?: number }) =>
      store.listEvents(sessionId, range),
    lastSequence: (sessionId: string) => store.lastSequence(sessionId),
    listTurns: (sessionId: string) => store.listTurns(sessionId),
    listUndoneTurns: (sessionId: string) => store.listUndoneTurns(sessionId),
    listFirstPrompts: (sessionIds: readonly string[]) => store.listFirstPrompts(sessionIds),
    getTurn: (sessionId: string, turnId: string) => store.getTurn(sessionId, turnId),
    getLastTurn: (sessionId: string) => store.getLastTurn(sessionId),
    runsElsewhere: (sessionId: string) => sessionRunsElsewhere(services, sessionId),
    getTodos: (sessionId: string) => store.getTodos(sessionId),
    listApprovals: (sessionId: string) => store.listApprovals(sessionId),
  });

  return Object.freeze({
    toolNames: table.names,
    contextWindowTokens: services.context.window.tokens,
    sessions,
    async createSession(input: { workspaceRoot: string; title?: string }) {
      if (options.homeFolder) assertHomeOutsideWorkspace(options.homeFolder, input.workspaceRoot);
      const session = await store.createSession({ workspaceRoot: input.workspaceRoot, title: input.title ?? null });
      await store.appendEvent(session.id, { type: 'session.created', workspaceRoot: session.workspaceRoot });
      return session;
    },
    async openSession(sessionId: string) {
      const session = await store.requireSession(sessionId);
      await recoverSession(services, sessionId);
      return session;
    },
    listSessions: () => store.listSessions(),
    async runTurn(turnOptions: RunTurnOptions) {
      touchedSessions.add(turnOptions.sessionId);
      try {
        return await runTurn(services, turnOptions);
      } finally {
        retention?.afterTurn(turnOptions.sessionId);
      }
    },
    async restore(sessionId: string, turnId: string, scope: RestoreScope) {
      // A turn whose process died stays `running` until recovery settles it; undo must not wait
      // for the session to run again.
      if (!services.runningSessions.has(sessionId)) {
        await store.requireSession(sessionId);
        await recoverSession(services, sessionId);
      }
      return restoreTurn(services, sessionId, turnId, scope);
    },
    fork: (sessionId: string, forkOptions: { atTurnId?: string } = {}) =>
      forkSession(services, sessionId, forkOptions.atTurnId),
    async listTurns(sessionId: string) {
      await store.requireSession(sessionId);
      return store.listTurns(sessionId);
    },
    async listUndoneTurns(sessionId: string) {
      await store.requireSession(sessionId);
      return store.listUndoneTurns(sessionId);
    },
    listMessages: (sessionId: string) => store.listMessages(sessionId),
    listEvents: (sessionId: string, listOptions?: { afterSequence?: number }) =>
      store.listEvents(sessionId, listOptions),
    getTodos: (sessionId: string) => store.getTodos(sessionId),
    async listCheckpoints(sessionId: string) {
      await store.requireSession(sessionId);
      return options.checkpoints.listRestorePoints(sessionId);
    },
    async diff(sessionId: string, turnId: string, path: string) {
      await store.requireSession(sessionId);
      return options.checkpoints.diff(sessionId, turnId, path);
    },
    subscribe: (listener: SessionEventListener) => store.subscribe(listener),
    openChangeFeed: (feedOptions: { readonly pollIntervalMs?: number | undefined } = {}) =>
      openSessionChangeFeed({
        db: options.db,
        subscribe: (listener) => store.subscribe(listener),
        pollIntervalMs: feedOptions.pollIntervalMs,
      }),
    approvals: options.approvals,
    async callTool(call: DirectToolCall) {
      touchedSessions.add(call.sessionId);
      try {
        return await runDirectCall(services, call);
      } finally {
        retention?.afterTurn(call.sessionId);
      }
    },
    describeTools: (sessionId: string, which: 'visible' | 'all' = 'visible') =>
      describeTools(services, sessionId, which),
    // Readable without delegation on: a core that only lists sessions still shows the children.
    listDelegations: (parentSessionId?: string) =>
      (delegation?.store ?? new DelegationStore(options.db)).list(parentSessionId),
    deleteSession: (sessionId: string) => deleteSession(services, sessionId, options.commands),
    compact: (sessionId: string) => compactSession(services, sessionId),
    modelView: (sessionId: string) => modelView(services, sessionId),
    async close() {
      await endSessions(services);
      await retention?.idle();
      await delegation?.close();
      if (options.commands) for (const sessionId of touchedSessions) await options.commands.endSession(sessionId);
      // run_command removes its finished capture folders in the background; none outlives the core.
      await settleCaptureFolders();
    },
  });
}
