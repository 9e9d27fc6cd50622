import { canonicalSha256 } from '@clawsmith/tool-protocol';
import {
  loadMcpConfiguration,
  type EditorMcpServer,
  type McpConfiguration,
  type McpServerScope,
} from './mcp-configuration.js';
import { mcpToolDefinition, type McpTool } from './mcp-tool-definition.js';
import { assignMcpToolNames, mcpToolName } from './mcp-tool-name.js';
import { READ_RESOURCE_TOOL, readResourceTool } from './read-resource-tool.js';
import type { McpElicitationHandler } from './elicitation.js';
import { McpCredentialStore, type McpSignInStatus } from './oauth/credential-store.js';
import { resolveRemoteEndpoint } from './oauth/remote-endpoint.js';
import { McpServerConnection } from './server-connection.js';
import { isStdioEntry } from './server-entry.js';
import { catalogueTools, ToolCatalogueStore, type CataloguedTool } from './tool-catalogue.js';
import { McpTrustStore, type McpTrustState } from './trust-store.js';

/** What {@link openMcpTools} needs. */
export interface McpToolsOptions {
  /** The clawsmith home: the user file, trust decisions and tool catalogues live here. */
  readonly homeDir: string;
  /** The workspace whose project files are read; without one, only the user file. */
  readonly workspaceRoot?: string;
  /**
   * Servers the person configured in their editor for this session (ACP's `mcpServers`): started
   * like the user file's (the person's own, no trust step), and winning over a file entry of the
   * same name.
   */
  readonly editorServers?: readonly EditorMcpServer[];
  /** Where `${VAR}` references are looked up; default `process.env`. */
  readonly environment?: NodeJS.ProcessEnv;
  /**
   * Whether a trusted server with no stored tool list is started now to learn its tools (default
   * true). With false such a server offers no tools until `clawsmith mcp trust` or a later session.
   */
  readonly discover?: boolean;
  /** Told about crashes, restarts, changed tool lists and servers left out. */
  readonly onNotice?: (notice: string) => void;
  /**
   * Asks the person when a server sends `elicitation/create` during a call. Without it (or when
   * it returns undefined) the request is declined, with the reason in the answer and a notice.
   */
  readonly onElicitation?: McpElicitationHandler;
}

/** One configured server as this session sees it. */
export interface McpServerStatus {
  readonly name: string;
  readonly scope: McpServerScope;
  readonly file: string;
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly trust: McpTrustState;
  /** `untrusted`/`disabled`: never started; `no-catalogue`: trusted, tools not known yet. */
  readonly availability: 'offered' | 'untrusted' | 'disabled' | 'no-catalogue' | 'unavailable';
  readonly toolCount: number;
  /** Why it offers no tools, when it does not. */
  readonly problem?: string;
  /** Whether annotations may lower risk. */
  readonly trustAnnotations: boolean;
  /**
   * Remote servers: `oauth` (signs in with `clawsmith mcp login`), `headers` (a static
   * Authorization header), `none` (`"oauth": false`).
   */
  readonly auth?: 'oauth' | 'headers' | 'none';
  /** Remote servers signing in with OAuth: whether signed in and until when. Never a token. */
  readonly signIn?: McpSignInStatus;
}

/** The MCP tools of one session, ready for `AgentCoreOptions.extensions`. */
export interface McpTools {
  /** The source name core reports in errors. */
  readonly source: 'extension:mcp';
  /** Deferred tools, `mcp__<server>__<tool>`. */
  readonly tools: readonly McpTool[];
  readonly configuration: McpConfiguration;
  servers(): McpServerStatus[];
  /** The connections, for status and tests (how many starts, which pid). */
  readonly connections: ReadonlyMap<string, McpServerConnection>;
  /** Ends every server this session started. Call it when the core closes. */
  close(): Promise<void>;
}

function transportOf(entry: McpConfiguration['servers'][number]['entry']): McpServerStatus['transport'] {
  if (isStdioEntry(entry)) return 'stdio';
  return entry.type === 'sse' ? 'sse' : 'http';
}

function remoteAuthStatus(
  server: McpConfiguration['servers'][number],
  environment: NodeJS.ProcessEnv,
  credentials: McpCredentialStore,
): Pick<McpServerStatus, 'auth' | 'signIn'> {
  if (isStdioEntry(server.entry)) return {};
  try {
    const endpoint = resolveRemoteEndpoint(server.name, server.entry, environment);
    if (endpoint.authMode !== 'oauth') return { auth: endpoint.authMode };
    return { auth: 'oauth', signIn: credentials.statusOf(server.name, endpoint.url.href) };
  } catch {
    // An unset variable or a bad URL: the server cannot start; its start says why.
    return { auth: 'oauth', signIn: { signedIn: false, refreshable: false } };
  }
}

/**
 * Reads the configuration, keeps the servers that may start (the person's own, and project
 * entries the person trusted in exactly this form), and builds their tools from the stored tool
 * lists without starting anything. A trusted server with no stored list is started once to list
 * its tools (unless `discover: false`). Throws `mcp_tool_name_collision` (after ending anything
 * it started) when two tools map to one name.
 */
export async function openMcpTools(options: McpToolsOptions): Promise<McpTools> {
  const configuration = loadMcpConfiguration(options);
  const trustStore = new McpTrustStore(options.homeDir);
  const catalogues = new ToolCatalogueStore(options.homeDir);
  const credentials = new McpCredentialStore(options.homeDir);
  const connections = new Map<string, McpServerConnection>();
  const statuses = new Map<string, McpServerStatus>();
  const listed = new Map<string, readonly CataloguedTool[]>();
  const withResources = new Set<string>();
  const changedLists = new Set<string>();

  for (const server of configuration.servers) {
    const trust = trustStore.stateOf(server, options.workspaceRoot);
    const base = {
      name: server.name,
      scope: server.scope,
      file: server.file,
      transport: transportOf(server.entry),
      trust,
      trustAnnotations: server.entry.trustAnnotations === true,
      ...remoteAuthStatus(server, options.environment ?? process.env, credentials),
    };
    if (server.entry.disabled === true) {
      statuses.set(server.name, { ...base, availability: 'disabled', toolCount: 0 });
      continue;
    }
    if (trust === 'untrusted' || trust === 'changed') {
      const problem =
        trust === 'changed'
          ? `its entry changed since it was trusted; review it and run: clawsmith mcp trust ${server.name}`
          : `a project server is never started before you trust it; review its entry and run: clawsmith mcp trust ${server.name}`;
      statuses.set(server.name, { ...base, availability: 'untrusted', toolCount: 0, problem });
      options.onNotice?.(`MCP server ${server.name} (${server.file}) is not started: ${problem}.`);
      continue;
    }
    const connection = new McpServerConnection(server, {
      ...(options.workspaceRoot !== undefined ? { workspaceRoot: options.workspaceRoot } : {}),
      ...(options.environment ? { environment: options.environment } : {}),
      ...(options.onNotice ? { onNotice: options.onNotice } : {}),
      ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
      credentials,
      // Servers also send this right after starting; only a list that differs from the one this
      // session offers is worth saying, and it is stored for the next session.
      onToolListChanged: () => {
        // During discovery the list being fetched is the session's list.
        if (!listed.has(server.name)) return;
        void connection
          .listTools()
          .then((listedNow) => {
            const tools = catalogueTools(listedNow);
            catalogues.write(server.entrySha256, server.name, tools, { resources: connection.offersResources });
            // Said once per session, however many times the server announces a change.
            if (
              !changedLists.has(server.name) &&
              canonicalSha256(tools) !== canonicalSha256(listed.get(server.name) ?? [])
            ) {
              changedLists.add(server.name);
              options.onNotice?.(
                `MCP server ${server.name} changed its tool list; new tools appear in the next session.`,
              );
            }
          })
          .catch(() => undefined);
      },
    });
    connections.set(server.name, connection);
    const stored = catalogues.read(server.entrySha256);
    if (stored) {
      listed.set(server.name, stored.tools);
      if (stored.resources === true) withResources.add(server.name);
      statuses.set(server.name, { ...base, availability: 'offered', toolCount: stored.tools.length });
    } else {
      statuses.set(server.name, {
        ...base,
        availability: 'no-catalogue',
        toolCount: 0,
        problem: 'its tool list is not known yet',
      });
    }
  }

  const closeAll = async () => {
    process.off('exit', killAll);
    await Promise.all([...connections.values()].map((connection) => connection.close()));
  };
  const killAll = () => {
    for (const connection of connections.values()) connection.killNow();
  };
  process.on('exit', killAll);

  if (options.discover !== false) {
    const missing = [...connections.values()].filter((connection) => !listed.has(connection.server.name));
    await Promise.all(
      missing.map(async (connection) => {
        const name = connection.server.name;
        try {
          const tools = catalogueTools(await connection.listTools());
          catalogues.write(connection.server.entrySha256, name, tools, { resources: connection.offersResources });
          listed.set(name, tools);
          if (connection.offersResources) withResources.add(name);
          const { problem: _unknownList, ...known } = statuses.get(name) as McpServerStatus;
          statuses.set(name, { ...known, availability: 'offered', toolCount: tools.length });
        } catch (error) {
          const problem = (error as Error).message;
          statuses.set(name, { ...(statuses.get(name) as McpServerStatus), availability: 'unavailable', problem });
          options.onNotice?.(`MCP server ${name} offers no tools this session: ${problem}`);
        }
      }),
    );
  }

  // Configuration order, not the order in which servers answered: names and errors stay stable.
  const entries = configuration.servers.flatMap(({ name: server }) =>
    (listed.get(server) ?? []).map((tool) => ({ server, tool: tool.name, definition: tool })),
  );
  let named: ReturnType<typeof assignMcpToolNames<(typeof entries)[number]>>;
  try {
    named = assignMcpToolNames(entries);
  } catch (error) {
    await closeAll();
    throw error;
  }
  const tools: McpTool[] = [];
  for (const [name, entry] of named) {
    const connection = connections.get(entry.server) as McpServerConnection;
    let told = false;
    tools.push(
      mcpToolDefinition({
        name,
        tool: entry.definition,
        connection,
        notice: {
          take: () => {
            if (told || !changedLists.has(entry.server)) return undefined;
            told = true;
            return `MCP server ${entry.server} said its tool list changed; this session's tools stay as they were, new tools appear in the next session.`;
          },
        },
      }),
    );
  }

  // Servers with resources also offer reading them (resource links in results point there),
  // unless one of their own tools already has that name.
  for (const { name: server } of configuration.servers) {
    if (!withResources.has(server)) continue;
    const name = mcpToolName(server, READ_RESOURCE_TOOL);
    if (named.has(name)) continue;
    tools.push(readResourceTool(name, connections.get(server) as McpServerConnection));
  }

  return Object.freeze({
    source: 'extension:mcp' as const,
    tools: Object.freeze(tools),
    configuration,
    connections,
    servers: () => [...statuses.values()],
    close: closeAll,
  });
}
