import {
  agent,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type McpServer,
} from '@agentclientprotocol/sdk';
import type { AgentCore, ApprovalAnswer, ApprovalRequest, PermissionMode, TurnStatus } from '@clawsmith/core';
import type { EditorMcpServer, McpElicitationAnswer, McpElicitationRequest } from '@clawsmith/mcp';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { resolveWorkspace, type AgentRuntime } from '../commands/agent-runtime.js';
import type { SystemPromptOptions } from '../instructions/system-prompt.js';
import { AcpSession } from './acp-session.js';
import { editorMcpServers } from './editor-mcp-servers.js';
import { ACP_SLASH_COMMANDS, isSlashCommand, runSlashCommand } from './acp-slash-commands.js';
import { historyUpdates } from './event-updates.js';
import { promptText } from './prompt-text.js';
import { SessionModeStore } from './session-mode-store.js';
import { modeState, permissionModeOf } from './session-modes.js';

/** What the agent is composed of. */
export interface AcpAgentOptions {
  readonly runtime: AgentRuntime;
  readonly version: string;
  /** `--workspace`: the workspace of every session, whatever `cwd` the editor sends. */
  readonly workspace?: string;
  readonly permissionMode: PermissionMode;
  readonly systemPrompt: SystemPromptOptions;
  /** The variable whose missing key keeps turns from running (`authenticate` names it). */
  readonly missingKeyVariable?: string;
  /** How long an approval may stay unanswered; default 10 minutes. */
  readonly approvalTimeoutMs?: number;
  /**
   * Opens a runtime of its own for one session whose editor configured MCP servers (the core's
   * tool table is frozen, so their tools need a core of their own); the agent closes it when the
   * session is opened again or the connection ends. Without it such servers are left out.
   */
  readonly openSessionRuntime?: (workspaceRoot: string, servers: readonly EditorMcpServer[]) => Promise<AgentRuntime>;
  /** Where notices go (servers left out); default stderr. */
  readonly onNotice?: (notice: string) => void;
}

/** The agent side of one ACP connection: the app to connect, and the sessions it opened. */
export interface AcpAgent {
  readonly app: AgentApp;
  /** Routes core's approval requests to the editor session they belong to. */
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /**
   * Routes an MCP server's question to the editor session whose call it was answering; throws
   * (the server's question is then declined with the reason) when the editor declared no form
   * elicitation or no session of this connection can be named.
   */
  elicit(request: McpElicitationRequest): Promise<McpElicitationAnswer>;
  /** Cancels every running turn and waits until each has ended. */
  cancelAll(): Promise<void>;
}

const STOP_REASONS: Readonly<Record<TurnStatus, 'end_turn' | 'cancelled' | 'max_turn_requests' | 'max_tokens'>> = {
  completed: 'end_turn',
  cancelled: 'cancelled',
  step_limit: 'max_turn_requests',
  incomplete: 'max_tokens',
  failed: 'end_turn',
};

function notOpen(sessionId: string): RequestError {
  return new RequestError(
    -32002,
    `Session ${JSON.stringify(sessionId.slice(0, 100))} is not open on this connection: start one with session/new, or open a clawsmith session with session/load (clawsmith sessions lists them).`,
    { sessionId },
  );
}

/** A clawsmith error as a JSON-RPC error that keeps its message and code (`data.code`). */
function asRequestError(error: unknown): unknown {
  if (!ClawsmithError.isInstance(error)) return error;
  const code = error.code === 'session_not_found' ? -32002 : error.code === 'workspace_not_found' ? -32602 : -32603;
  return new RequestError(code, error.message, { code: error.code });
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asRequestError(error);
  }
}

/**
 * Builds the ACP agent over an opened runtime. Every ACP session is a clawsmith session of the
 * runtime's home (its id is the session id), so `clawsmith sessions`, `undo` and the web page see it.
 */
export function createAcpAgent(options: AcpAgentOptions): AcpAgent {
  const { core } = options.runtime;
  const sessions = new Map<string, AcpSession>();
  const modes = new SessionModeStore(options.runtime.home.path);
  const notice = options.onNotice ?? ((text: string) => process.stderr.write(`clawsmith: ${text}\n`));
  /** The runtimes opened for single sessions, with what ends them. */
  const ownRuntimes = new Map<string, { runtime: AgentRuntime; unsubscribe: () => void }>();
  // A session's events come from the core it runs on; a core follows only its own sessions.
  const follow = (followed: AgentCore) =>
    followed.subscribe((event) => {
      const session = sessions.get(event.sessionId);
      if (session?.core === followed) session.event(event);
    });
  const unsubscribe = follow(core);
  const closeOwnRuntime = async (sessionId: string) => {
    const own = ownRuntimes.get(sessionId);
    if (!own) return;
    ownRuntimes.delete(sessionId);
    own.unsubscribe();
    await own.runtime.close();
  };
  /** The runtime a session runs on: the connection's, or one of its own with the editor's MCP servers. */
  const runtimeFor = async (sessionId: string, workspaceRoot: string, mcpServers: readonly McpServer[]) => {
    await closeOwnRuntime(sessionId);
    const selection = editorMcpServers(mcpServers);
    for (const leftOut of selection.leftOut) notice(leftOut);
    if (selection.servers.length === 0) return options.runtime;
    if (!options.openSessionRuntime) {
      notice(`the editor's MCP servers are not started by this agent; configure them in <home>/mcp.json`);
      return options.runtime;
    }
    const runtime = await options.openSessionRuntime(workspaceRoot, selection.servers);
    ownRuntimes.set(sessionId, { runtime, unsubscribe: follow(runtime.core) });
    return runtime;
  };

  /** The editor session that answers for `sessionId`: itself, or the one that delegated to it. */
  const answeringSession = async (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (session) return session;
    const delegation = (await core.listDelegations()).find((record) => record.childSessionId === sessionId);
    return delegation ? sessions.get(delegation.parentSessionId) : undefined;
  };
  /** Whether the editor said, in `initialize`, that it fills in forms (ACP's `elicitation.form`). */
  let editorFillsForms = false;

  const requireSession = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw notOpen(sessionId);
    return session;
  };
  const requireKey = () => {
    if (options.missingKeyVariable)
      throw RequestError.authRequired(
        { variable: options.missingKeyVariable },
        `set ${options.missingKeyVariable} in the environment the editor starts clawsmith with (the agent server's "env"), then restart the agent`,
      );
  };
  const announce = (session: AcpSession) =>
    // After the response that names the session has gone out.
    setImmediate(() =>
      session.send({ sessionUpdate: 'available_commands_update', availableCommands: [...ACP_SLASH_COMMANDS] }),
    );
  const open = (client: AgentContext, id: string, workspaceRoot: string, runtime: AgentRuntime) => {
    const session = new AcpSession({
      runtime,
      client,
      id,
      workspaceRoot,
      mode: sessions.get(id)?.mode ?? modes.modeOf(id) ?? options.permissionMode,
    });
    sessions.set(id, session);
    return session;
  };

  const app = agent({ name: 'clawsmith' })
    .onRequest('initialize', ({ params }) => {
      const capabilities = params.clientCapabilities as { elicitation?: { form?: unknown } | null } | undefined;
      editorFillsForms = capabilities?.elicitation?.form != null;
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          sessionCapabilities: { list: {} },
        },
        authMethods: options.missingKeyVariable
          ? [
              {
                id: 'environment-key',
                name: `Set ${options.missingKeyVariable}`,
                description: `clawsmith reads the model's key from ${options.missingKeyVariable}: add it to the agent server's "env" in the editor's settings and restart the agent.`,
              },
            ]
          : [],
        agentInfo: { name: 'clawsmith', title: 'clawsmith', version: options.version },
      };
    })
    .onRequest('authenticate', () => {
      requireKey();
      return {};
    })
    .onRequest('session/new', ({ params, client }) =>
      guarded(async () => {
        requireKey();
        const workspaceRoot = resolveWorkspace(options.workspace ?? params.cwd);
        const record = await core.createSession({ workspaceRoot });
        const runtime = await runtimeFor(record.id, record.workspaceRoot, params.mcpServers);
        const session = open(client, record.id, record.workspaceRoot, runtime);
        modes.remember(session.id, session.mode);
        announce(session);
        return { sessionId: session.id, modes: modeState(session.mode) };
      }),
    )
    .onRequest('session/load', ({ params, client }) =>
      guarded(async () => {
        if (sessions.get(params.sessionId)?.turn)
          throw RequestError.invalidRequest(undefined, 'a turn of this session is running');
        const record = await core.openSession(params.sessionId);
        const runtime = await runtimeFor(record.id, record.workspaceRoot, params.mcpServers);
        const session = open(client, record.id, record.workspaceRoot, runtime);
        for (const update of await historyUpdates(core, record.id, record.workspaceRoot)) session.send(update);
        await session.flush();
        announce(session);
        return { modes: modeState(session.mode) };
      }),
    )
    .onRequest('session/list', ({ params }) =>
      guarded(async () => {
        const cwd = params.cwd ? resolveWorkspace(params.cwd) : undefined;
        const listed = (await core.listSessions()).filter(
          (record) => cwd === undefined || record.workspaceRoot === cwd,
        );
        return {
          sessions: listed.map((record) => ({
            sessionId: record.id,
            cwd: record.workspaceRoot,
            title: record.title,
            updatedAt: record.updatedAt,
          })),
        };
      }),
    )
    .onRequest('session/set_mode', ({ params }) => {
      const session = requireSession(params.sessionId);
      const mode = permissionModeOf(params.modeId);
      if (!mode)
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `unknown mode; the modes are default, accept-edits, read-only and full-auto`,
        );
      // Kept before it applies: a session loaded later opens in the mode it was left in.
      modes.remember(session.id, mode);
      session.mode = mode;
      return {};
    })
    .onRequest('session/prompt', ({ params, signal }) =>
      guarded(async () => {
        const session = requireSession(params.sessionId);
        if (session.turn)
          throw RequestError.invalidRequest(undefined, 'a turn is already running in this session; cancel it or wait');
        const text = promptText(params.prompt);
        if (isSlashCommand(text)) {
          session.textDelta(await runSlashCommand(session.core, session.id, text));
          await session.flush();
          return { stopReason: 'end_turn' as const };
        }
        requireKey();
        const controller = new AbortController();
        const onAbort = () => controller.abort();
        signal.addEventListener('abort', onAbort, { once: true });
        session.turn = controller;
        let ended!: () => void;
        session.turnEnded = new Promise((resolve) => (ended = resolve));
        try {
          // The workspace's settings as they are now (a file fixed or trusted since applies).
          const settings = session.runtime.settingsFor(session.workspaceRoot);
          const result = await session.core.runTurn({
            sessionId: session.id,
            prompt: text,
            systemPrompt: session.runtime.systemPrompt(session.workspaceRoot, options.systemPrompt),
            ...(settings ? { settings } : {}),
            signal: controller.signal,
            permissionMode: session.mode,
            onTextDelta: (delta) => session.textDelta(delta),
          });
          await session.flush();
          if (result.status === 'failed' && result.error?.code !== 'model_response_refused')
            throw new RequestError(-32603, result.error?.message ?? 'The turn failed.', {
              code: result.error?.code,
              turnId: result.turnId,
            });
          return {
            stopReason:
              result.error?.code === 'model_response_refused' ? ('refusal' as const) : STOP_REASONS[result.status],
          };
        } finally {
          signal.removeEventListener('abort', onAbort);
          session.turn = undefined;
          ended();
        }
      }),
    )
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    });

  return {
    app,
    async approve(request, signal) {
      // A subagent's call is asked in the editor session that delegated to it.
      const session = await answeringSession(request.sessionId);
      if (!session) throw new Error(`no editor session on this connection can answer for session ${request.sessionId}`);
      return session.approve(request, signal, options.approvalTimeoutMs);
    },
    async elicit(request) {
      if (!editorFillsForms) throw new Error('the editor does not fill in forms (it declared no elicitation.form)');
      const session = request.sessionId === undefined ? undefined : await answeringSession(request.sessionId);
      if (!session) throw new Error('no editor session on this connection was waiting on that server');
      return session.elicit(request, options.approvalTimeoutMs);
    },
    async cancelAll() {
      for (const session of sessions.values()) session.turn?.abort();
      await Promise.all([...sessions.values()].map((session) => session.turnEnded));
      unsubscribe();
      for (const sessionId of [...ownRuntimes.keys()]) await closeOwnRuntime(sessionId);
    },
  };
}
