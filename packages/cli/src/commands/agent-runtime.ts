import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type {
  AgentCore,
  ApprovalBroker,
  ApprovalHandler,
  ClawsmithHome,
  PermissionMode,
  SessionRecord,
  TurnSettings,
} from '@clawsmith/core';
import type { EditorMcpServer, McpElicitationHandler } from '@clawsmith/mcp';
import type { Provider } from '@clawsmith/providers';
import type { Telemetry } from '@clawsmith/telemetry';
import { CliError } from '../cli-errors.js';
import { buildSystemPrompt, type SystemPromptOptions } from '../instructions/system-prompt.js';
import type { ContextSettings } from './context-options.js';
import { openLspExtension } from './lsp-extension.js';
import { isScriptProvider } from './provider-selection.js';
import type { SubagentSettings } from './subagent-options.js';
import type { NetworkSettings } from './network-options.js';
import { settingsInputs, type SettingsFlags } from '../settings/settings-flags.js';
import { openTelemetry } from './telemetry-runtime.js';
import { NO_MODEL } from './store-runtime.js';
import { checkSessionWorkspace, resolveSessionReference } from './session-reference.js';

/** An opened home with an agent on it. `close()` ends background work and closes the database. */
export interface AgentRuntime {
  readonly home: ClawsmithHome;
  readonly core: AgentCore;
  /** OpenTelemetry export of the core's events (off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set). */
  readonly telemetry: Telemetry;
  /**
   * The system prompt of a turn in `workspaceRoot`, the same for every entry that runs a model
   * (`run`, `chat`, `web`): `--system-prompt` or the default, the workspace's project
   * instructions, the extensions' sections (the skill list), `--append-system-prompt`.
   */
  systemPrompt(workspaceRoot: string, options?: SystemPromptOptions): string;
  /**
   * Ends the background commands one session started (an MCP connection that closed), leaving
   * the session in the store; resolves with how many were running.
   */
  endSessionCommands(sessionId: string): Promise<number>;
  /**
   * The rules and hooks of `workspaceRoot` (user file, project files under the trust rule,
   * `--settings`, the flags), read now, for a turn of a session there; a notice is said once per
   * process. Throws `invalid_settings` for a file that cannot be used. Without `settings` in the
   * options: undefined.
   */
  settingsFor(workspaceRoot: string): TurnSettings | undefined;
  close(): Promise<void>;
}

/** What {@link openAgentRuntime} needs. */
export interface AgentRuntimeOptions {
  /** `--home`; else `CLAWSMITH_HOME`, else `~/.clawsmith`. */
  readonly home?: string;
  /** Without one, the runtime can list, undo and fork but not run turns. */
  readonly provider?: Provider;
  readonly permissionMode?: PermissionMode;
  readonly approvalHandler?: ApprovalHandler;
  /** Approvals answered from elsewhere (`clawsmith web`'s page), instead of `approvalHandler`. */
  readonly approvals?: ApprovalBroker;
  /** Compose MCP servers' tools (user file, and this workspace's trusted project servers). */
  readonly mcp?: {
    readonly workspaceRoot?: string;
    /** Servers an editor configured for the one session this runtime serves (`clawsmith acp`). */
    readonly editorServers?: readonly EditorMcpServer[];
    readonly onNotice: (notice: string) => void;
    /** Puts a server's question to the person (`chat`, `acp`); without it questions are declined. */
    readonly onElicitation?: McpElicitationHandler;
  };
  /** The subagents' model (default `provider`) and step limit (default core's). */
  readonly subagents?: SubagentSettings;
  /** Compose skills, memory and trusted plugins (`@clawsmith/extensions`); entries pass `entryExtensions(…)`. */
  readonly extensions?: { readonly workspaceRoot?: string; readonly onNotice: (notice: string) => void };
  /** `--traceparent`: the W3C trace the turns continue (else the environment's `TRACEPARENT`). */
  readonly traceparent?: string;
  /** Commands' domain allowlist, web_fetch's domain rules and the private addresses both may reach. */
  readonly network?: NetworkSettings;
  /**
   * Rules and hooks from the settings files and flags (`effectiveSettings` of core), read for
   * `workspaceRoot`; its notices (an untrusted project file) are said once through `onNotice`,
   * and so is what a hook that cannot block failed or said.
   */
  readonly settings?: {
    readonly workspaceRoot: string;
    readonly flags: SettingsFlags;
    /**
     * For an entry whose sessions live in different workspaces (`web`): nothing goes into the
     * core; each turn takes `settingsFor(session's workspace)`. The files of `workspaceRoot` are
     * still read at start, so an invalid one stops the command.
     */
    readonly perSession?: boolean;
    readonly onNotice: (notice: string) => void;
  };
  /** `--context-window`, `--max-turn-tokens`, `--max-session-tokens`. */
  readonly context?: ContextSettings;
}

/**
 * Opens the home (creating its folder) and composes the agent: core on the home's database,
 * checkpoints and artifacts, the eight base tools with `run_command` sandboxed where the machine
 * allows it, and the background command tools (their commands end with the process). Core and its services are imported here, lazily.
 */
export async function openAgentRuntime(options: AgentRuntimeOptions): Promise<AgentRuntime> {
  const { createAgentCore, createBuiltinTools, effectiveSettings, openClawsmithHome, resolveClawsmithHome } =
    await import('@clawsmith/core');
  const { createCommandExecutionService, createWorkspaceWall } = await import('@clawsmith/command-sandbox');
  const telemetry = await openTelemetry(options);
  const homeFolder = resolveClawsmithHome(options.home);
  mkdirSync(homeFolder, { recursive: true });
  // Read before anything opens: an invalid settings file stops the command with its reason.
  // Hook commands run in the same sandbox as run_command, the home hidden from them too.
  const said = new Set<string>();
  const readSettings = (workspaceRoot: string) => {
    if (!options.settings) return undefined;
    const read = effectiveSettings({
      ...settingsInputs(homeFolder, workspaceRoot, options.settings.flags),
      commandSandbox: { sandbox: 'auto', additionalHiddenPaths: [realpathSync(homeFolder)] },
    });
    for (const notice of read.notices) if (!said.has(notice) && said.add(notice)) options.settings.onNotice(notice);
    return read;
  };
  const startSettings = readSettings(options.settings?.workspaceRoot ?? '.');
  const settings = options.settings?.perSession ? undefined : startSettings;
  // Commands never see the home (database, journals, other sessions' artifacts), wherever it is.
  const network = options.network;
  const sandbox = {
    sandbox: 'auto',
    additionalHiddenPaths: [realpathSync(homeFolder)],
    ...(network && network.commandDomains.length > 0
      ? { networkAllowlist: { domains: network.commandDomains, allowance: network.allowance } }
      : {}),
  } as const;
  // File tools and undo write through the same wall: a helper whose only writable folder is the workspace.
  const wall = createWorkspaceWall({ mode: 'auto' });
  const home = await openClawsmithHome(options.home, { wall });
  // Background commands live as long as this process: across the turns of an interactive session.
  const commands = createCommandExecutionService(sandbox);
  // Language servers start on first use and end with this runtime.
  const lsp = await openLspExtension(home);
  const mcp = options.mcp
    ? await (await import('../mcp/mcp-extension.js')).openMcpExtension({ homeDir: homeFolder, ...options.mcp })
    : undefined;
  const extensions = options.extensions
    ? await (
        await import('../extensions/extensions-composition.js')
      ).openCliExtensions({ homeDir: resolveClawsmithHome(options.home), ...options.extensions })
    : undefined;
  const core = createAgentCore({
    ...options.context,
    commands,
    db: home.db,
    provider: options.provider ?? NO_MODEL,
    homeFolder,
    checkpoints: home.checkpoints,
    artifacts: home.artifacts,
    builtinTools: createBuiltinTools({
      command: sandbox,
      webFetch: { allowance: network?.allowance ?? {} },
      // search_files keeps its trigram index in the home; CLAWSMITH_SEARCH_INDEX=off turns it off.
      workspace: {
        wall,
        searchIndex: process.env.CLAWSMITH_SEARCH_INDEX === 'off' ? false : { folder: join(home.path, 'search-index') },
      },
    }),
    extensions: [
      lsp.source,
      ...(mcp ? [{ source: mcp.source, tools: mcp.tools }] : []),
      ...(extensions?.sources ?? []),
    ],
    permissionMode: options.permissionMode ?? 'default',
    ...(telemetry.enabled ? { traceContext: telemetry.traceContextOf } : {}),
    rules: [
      ...(settings?.rules ?? []),
      ...(network && network.webFetchAllow.length > 0
        ? [{ action: 'allow' as const, tool: 'web_fetch', domains: network.webFetchAllow, reason: '--web-fetch-allow' }]
        : []),
      ...(network && network.webFetchDeny.length > 0
        ? [{ action: 'deny' as const, tool: 'web_fetch', domains: network.webFetchDeny, reason: '--web-fetch-deny' }]
        : []),
    ],
    ...(settings ? { hooks: settings.hooks, resultHooks: settings.resultHooks, turnHooks: settings.turnHooks } : {}),
    // What hooks that cannot block failed or said (SessionEnd, Notification, a blocked compaction) goes where settings notices go.
    ...(options.settings ? { onHookNotice: options.settings.onNotice } : {}),
    ...(options.approvalHandler ? { approvalHandler: options.approvalHandler } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
    // Subagents use the same model unless --subagent-model names another (none without one: `mcp
    // serve` and the store commands run no model); a script gives each child its own `children` entry.
    ...(options.provider
      ? {
          delegation: {
            // apply_patch writes through the same wall as the file tools.
            workspace: { wall },
            ...(options.subagents?.provider ? { provider: options.subagents.provider } : {}),
            ...(options.subagents?.maxSteps ? { maxSteps: options.subagents.maxSteps } : {}),
            providerFor: (child: { parentToolCallId: string }) => {
              const provider = options.provider!;
              return isScriptProvider(provider) ? provider.childProvider(child.parentToolCallId) : undefined;
            },
          },
        }
      : {}),
  });
  const stopTracing = telemetry.enabled ? core.subscribe(telemetry.record) : undefined;
  return {
    home,
    core,
    telemetry,
    systemPrompt: (workspaceRoot, promptOptions = {}) =>
      buildSystemPrompt(
        {
          workspaceRoot,
          toolNames: core.toolNames,
          extensionInstructions: extensions?.instructions(workspaceRoot) ?? '',
        },
        promptOptions,
      ),
    endSessionCommands: (sessionId) => commands.endSession(sessionId),
    settingsFor(workspaceRoot) {
      const read = readSettings(workspaceRoot);
      return read
        ? { rules: read.rules, hooks: read.hooks, resultHooks: read.resultHooks, turnHooks: read.turnHooks }
        : undefined;
    },
    async close() {
      // Core closes first: the events of turns it cancels still reach the telemetry.
      await core.close();
      stopTracing?.();
      // Spans and measurements not exported yet go out before the process ends.
      await telemetry.shutdown();
      extensions?.close();
      await lsp.close();
      await mcp?.close();
      await commands.close();
      await home.close();
      await wall.close();
    },
  };
}

/**
 * The real path of `--workspace` when the person typed it (not its default), else undefined.
 * `command` is the commander command an action receives.
 */
export function explicitWorkspace(command: unknown, workspace: string): string | undefined {
  const source = (command as { getOptionValueSource?: (key: string) => string | undefined })?.getOptionValueSource?.(
    'workspace',
  );
  return source === undefined || source === 'default' ? undefined : resolveWorkspace(workspace);
}

/** The real path of `--workspace`, which must be an existing folder. */
export function resolveWorkspace(path: string): string {
  const absolute = resolve(path);
  try {
    if (statSync(absolute).isDirectory()) return realpathSync(absolute);
  } catch {
    // reported below
  }
  throw new CliError(
    'workspace_not_found',
    `The workspace ${absolute} is not an existing folder; pass --workspace with a folder that exists.`,
  );
}

/**
 * Opens `--session` (an id or `last`; recovering what a crashed run left open) or creates a
 * session in `workspaceRoot`. `requestedWorkspace` is the real path of a `--workspace` the person
 * gave explicitly: continuing a session of another workspace with it is `workspace_mismatch`.
 */
export async function openOrCreateSession(
  core: AgentCore,
  sessionReference: string | undefined,
  workspaceRoot: string,
  title?: string,
  requestedWorkspace?: string,
): Promise<SessionRecord> {
  if (sessionReference === undefined) return core.createSession({ workspaceRoot, ...(title ? { title } : {}) });
  const sessionId = await resolveSessionReference(core, sessionReference, requestedWorkspace ?? resolveWorkspace('.'));
  // Checked before opening: opening recovers (and so writes to) the session.
  const existing = (await core.listSessions()).find((session) => session.id === sessionId);
  if (existing) checkSessionWorkspace(existing, requestedWorkspace);
  return core.openSession(sessionId);
}

/**
 * A turn named on the command line: its id, or its number in the session (`1` = the first
 * turn), or `last`; a turn whose conversation was undone is found too. Unknown references fail with `turn_not_found` listing where to look.
 */
export async function resolveTurn(core: AgentCore, sessionId: string, reference: string): Promise<string> {
  const turns = await core.listTurns(sessionId);
  const byId = turns.find((turn) => turn.turnId === reference);
  if (byId) return byId.turnId;
  const byNumber = /^\d+$/.test(reference)
    ? turns.find((turn) => turn.ordinal === Number(reference))
    : reference === 'last'
      ? turns.at(-1)
      : undefined;
  if (byNumber) return byNumber.turnId;
  // A turn whose conversation was undone is still a turn: core says so (or undoes its files).
  const undone = (await core.listUndoneTurns(sessionId)).reverse();
  const undoneMatch =
    undone.find((turn) => turn.turnId === reference) ??
    (/^\d+$/.test(reference) ? undone.find((turn) => turn.ordinal === Number(reference)) : undefined);
  if (undoneMatch) return undoneMatch.turnId;
  throw new CliError(
    'turn_not_found',
    `Session ${sessionId} has no turn ${JSON.stringify(reference)} (it has ${turns.length}). Use a turn id or number from 'clawsmith checkpoints --session ${sessionId}'.`,
  );
}
