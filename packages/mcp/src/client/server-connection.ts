import { isAbsolute, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TraceContext } from '@clawsmith/tool-protocol';
import { MCP_ERROR_CODES, McpError } from '../mcp-errors.js';
import { traceMeta } from '../trace-meta.js';
import type { McpCallResult } from './call-result.js';
import { answerElicitation, type ElicitationOrigin, type McpElicitationHandler } from './elicitation.js';
import { expandReferences } from './environment-references.js';
import type { ConfiguredMcpServer } from './mcp-configuration.js';
import { authFailure, type McpAuthMode } from './oauth/auth-failure.js';
import type { McpCredentialStore } from './oauth/credential-store.js';
import { McpOAuthProvider } from './oauth/oauth-provider.js';
import { resolveRemoteEndpoint } from './oauth/remote-endpoint.js';
import { DEFAULT_CALL_TIMEOUT_MS, isStdioEntry } from './server-entry.js';

/** First wait before restarting a crashed server; doubles with each crash in a row, up to 30 s. */
export const RESTART_BACKOFF_MS = Object.freeze({ initial: 500, maximum: 30_000 });

/** How long starting a server and listing its tools may take, whatever the call timeout. */
export const STARTUP_TIMEOUT_MS = 30_000;

/**
 * Largest single message accepted from a stdio server (the SDK's default is 10 MiB, less than one
 * 10 MB result once JSON-escaped). Larger messages end the connection with a clear reason.
 */
export const MAX_STDIO_MESSAGE_BYTES = 64 * 1024 * 1024;

/** One item of a `resources/read` answer: text or base64 bytes. */
export interface McpResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

/** Where a connection is in its life. */
export type McpConnectionState = 'idle' | 'starting' | 'ready' | 'crashed' | 'closed';

/** Options of one call. */
export interface McpCallOptions {
  readonly signal: AbortSignal;
  /** The session and tool call this call serves: a question the server asks meanwhile is theirs. */
  readonly origin?: ElicitationOrigin;
  /** The calling tool call's trace context, sent in the request's `_meta`. */
  readonly traceContext?: TraceContext;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** What a connection needs from its owner. */
export interface McpConnectionOptions {
  /** The workspace: the default `cwd` of stdio servers and the base of a relative one. */
  readonly workspaceRoot?: string;
  /** Where `${VAR}` references are looked up; default `process.env`. Never passed whole to a server. */
  readonly environment?: NodeJS.ProcessEnv;
  /** Told about events worth a line in a log: crashes, restarts, a changed tool list. */
  readonly onNotice?: (notice: string) => void;
  /** Told when the server says its tool list changed. */
  readonly onToolListChanged?: () => void;
  /**
   * Where OAuth credentials of remote servers are kept (`<home>/mcp/credentials`). Without it a
   * remote server that asks for a sign-in answers `mcp_auth_required` and nothing is stored.
   */
  readonly credentials?: McpCredentialStore;
  /** Asked when a server sends `elicitation/create`; without it every request is declined. */
  readonly onElicitation?: McpElicitationHandler;
}

const CLIENT_INFO = { name: 'clawsmith', version: '0.1.0' };

function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * One MCP server, started at the first call that needs it (never at construction), with a stdio
 * child that gets only the minimal environment (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus the
 * entry's `env`. A server that ends unexpectedly answers `mcp_server_unavailable` (retryable)
 * and is started again at the next call after a backoff.
 */
export class McpServerConnection {
  readonly server: ConfiguredMcpServer;
  readonly #options: McpConnectionOptions;
  /** The origins of the calls in flight, one entry per call. */
  readonly #callsInFlight = new Set<{ readonly origin: ElicitationOrigin }>();
  #state: McpConnectionState = 'idle';
  #client: Client | undefined;
  #starting: Promise<Client> | undefined;
  #crashesInARow = 0;
  #restartAt = 0;
  #starts = 0;
  #pid: number | undefined;
  #closing = false;
  #lastTransportError: string | undefined;
  #authMode: McpAuthMode = 'none';
  #protocolVersion: string | undefined;
  #offersResources = false;

  constructor(server: ConfiguredMcpServer, options: McpConnectionOptions = {}) {
    this.server = server;
    this.#options = options;
  }

  /** Where the connection is. */
  get state(): McpConnectionState {
    return this.#state;
  }

  /** How many times a server process or HTTP session was started. */
  get starts(): number {
    return this.#starts;
  }

  /** The stdio child's process id while it runs. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** The MCP revision agreed with a Streamable HTTP server, once connected. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Whether the server announced `resources` when it last started. */
  get offersResources(): boolean {
    return this.#offersResources;
  }

  /** The entry's call timeout. */
  get timeoutMs(): number {
    return this.server.entry.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  #unavailable(reason: string, cause?: unknown): McpError {
    return new McpError(
      MCP_ERROR_CODES.serverUnavailable,
      `The MCP server ${JSON.stringify(this.server.name)} is unavailable: ${reason}`,
      { retryable: true, cause },
    );
  }

  /** Starts the server if it is not running; concurrent callers share one start. */
  async connect(): Promise<Client> {
    if (this.#state === 'closed') throw this.#unavailable('its connection was closed with the session.');
    if (this.#client && this.#state === 'ready') return this.#client;
    if (this.#starting) return this.#starting;
    const wait = this.#restartAt - Date.now();
    if (this.#state === 'crashed' && wait > 0) {
      throw this.#unavailable(
        `it ended unexpectedly and restarts in ${Math.ceil(wait / 1000)} s (backoff after ${this.#crashesInARow} crash${this.#crashesInARow === 1 ? '' : 'es'} in a row). Try again then.`,
      );
    }
    this.#state = 'starting';
    this.#starting = this.#start().finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  async #start(): Promise<Client> {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { ElicitRequestSchema, ToolListChangedNotificationSchema } =
      await import('@modelcontextprotocol/sdk/types.js');
    const environment = this.#options.environment ?? process.env;
    const name = this.server.name;
    const entry = this.server.entry;
    const makeClient = () => {
      // Elicitation is declared always: with nobody to ask, a request is declined with a reason.
      const client = new Client(CLIENT_INFO, { capabilities: { elicitation: { form: {} } } });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#options.onToolListChanged?.());
      client.setRequestHandler(ElicitRequestSchema, (request) =>
        answerElicitation(
          name,
          request.params,
          this.#options.onElicitation,
          this.#options.onNotice,
          this.#askingOrigin(),
        ),
      );
      return client;
    };
    let client = makeClient();
    let transport: Transport;
    try {
      if (isStdioEntry(entry)) {
        const [{ StdioClientTransport }, { useStdioReadBuffer }] = await Promise.all([
          import('@modelcontextprotocol/sdk/client/stdio.js'),
          import('./stdio-read-buffer.js'),
        ]);
        const env: Record<string, string> = {};
        for (const [key, value] of Object.entries(entry.env ?? {}))
          env[key] = expandReferences(value, environment, name);
        const base = this.#options.workspaceRoot ?? process.cwd();
        const cwd = entry.cwd === undefined ? base : expandReferences(entry.cwd, environment, name);
        const stdio = new StdioClientTransport({
          command: expandReferences(entry.command, environment, name),
          args: (entry.args ?? []).map((argument) => expandReferences(argument, environment, name)),
          env,
          cwd: isAbsolute(cwd) ? cwd : resolve(base, cwd),
          // stderr could carry secrets from the server's environment: never shown to the model.
          stderr: 'ignore',
          maxBufferSize: MAX_STDIO_MESSAGE_BYTES,
        });
        useStdioReadBuffer(stdio, MAX_STDIO_MESSAGE_BYTES);
        transport = stdio;
        this.#starts += 1;
        await client.connect(stdio, { timeout: STARTUP_TIMEOUT_MS });
        this.#pid = stdio.pid ?? undefined;
      } else {
        const endpoint = resolveRemoteEndpoint(name, entry, environment);
        const { url, headers } = endpoint;
        this.#authMode = endpoint.authMode;
        const credentials = this.#options.credentials;
        const authProvider =
          endpoint.authMode === 'oauth' && credentials
            ? new McpOAuthProvider({
                store: credentials,
                serverName: name,
                serverUrl: url.href,
                settings: endpoint.oauth,
              })
            : undefined;
        const transportOptions = { requestInit: { headers }, ...(authProvider ? { authProvider } : {}) };
        this.#starts += 1;
        if (entry.type === 'sse') {
          const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
          transport = new SSEClientTransport(url, transportOptions);
          await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
        } else {
          const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
          try {
            transport = new StreamableHTTPClientTransport(url, transportOptions);
            await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
          } catch (error) {
            const status = errorCode(error);
            // Older servers answer a Streamable HTTP POST with 4xx; they speak SSE at the same URL.
            // 401 and 403 are about credentials, which SSE would not change.
            if (
              entry.type !== undefined ||
              status === undefined ||
              status < 400 ||
              status >= 500 ||
              status === 401 ||
              status === 403
            )
              throw error;
            const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
            client = makeClient();
            transport = new SSEClientTransport(url, transportOptions);
            await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
            this.#options.onNotice?.(`MCP server ${name} does not speak Streamable HTTP (${status}); using SSE.`);
          }
        }
      }
    } catch (error) {
      await client.close().catch(() => undefined);
      this.#pid = undefined;
      const authError = await authFailure(error, name, this.#authMode);
      if (authError || McpError.isInstance(error)) {
        // A missing sign-in or variable is the person's to fix: no crash, no backoff.
        this.#state = 'idle';
        throw authError ?? error;
      }
      this.#recordCrash();
      throw this.#unavailable(`it could not be started or reached (${(error as Error).message}).`, error);
    }
    client.onerror = (error) => {
      this.#lastTransportError = error.message;
    };
    client.onclose = () => {
      this.#pid = undefined;
      if (this.#closing || this.#client !== client) return;
      this.#client = undefined;
      this.#recordCrash();
      this.#options.onNotice?.(
        `MCP server ${name} ended unexpectedly; it restarts at the next call after ${this.#restartAt - Date.now()} ms.`,
      );
    };
    // Streamable HTTP keeps the revision both sides agreed on (the SDK asks for its newest and
    // accepts an older one the server answers with); stdio and SSE do not expose it.
    const negotiated = (transport as { protocolVersion?: unknown }).protocolVersion;
    this.#protocolVersion = typeof negotiated === 'string' ? negotiated : undefined;
    this.#offersResources = client.getServerCapabilities()?.resources !== undefined;
    this.#client = client;
    this.#state = 'ready';
    return client;
  }

  #recordCrash(): void {
    this.#crashesInARow += 1;
    const backoff = Math.min(
      RESTART_BACKOFF_MS.maximum,
      RESTART_BACKOFF_MS.initial * 2 ** Math.min(16, this.#crashesInARow - 1),
    );
    this.#restartAt = Date.now() + backoff;
    this.#state = 'crashed';
  }

  /** Lists every tool the server offers (following pagination). Starts the server if needed. */
  async listTools(): Promise<Tool[]> {
    const client = await this.connect();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: STARTUP_TIMEOUT_MS });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /**
   * Calls a tool. Timeout (reset by progress) and the abort signal both send MCP cancellation.
   * Throws `mcp_timeout`, `mcp_server_unavailable` (retryable) or `mcp_protocol_error`; an abort
   * rethrows the signal's reason.
   */
  async callTool(toolName: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpCallResult> {
    const client = await this.connect();
    // The SDK adds an abort listener to the signal it is given and never removes it: given the
    // turn's signal, every call of a turn would leave one behind (and warn past ten). Each call
    // gets its own signal, linked to the turn's only while it runs.
    const call = new AbortController();
    const inFlight = { origin: options.origin ?? {} };
    this.#callsInFlight.add(inFlight);
    const forward = () => call.abort(options.signal.reason);
    if (options.signal.aborted) forward();
    else options.signal.addEventListener('abort', forward, { once: true });
    try {
      const meta = traceMeta(options.traceContext);
      const request = { name: toolName, arguments: args, ...(meta.traceparent ? { _meta: meta } : {}) };
      const result = await client.callTool(request, undefined, {
        signal: call.signal,
        timeout: this.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: this.timeoutMs * 10,
        ...(options.onProgress
          ? {
              onprogress: (progress: { progress: number; total?: number; message?: string }) =>
                options.onProgress?.(progress),
            }
          : {}),
      });
      this.#crashesInARow = 0;
      return result as McpCallResult;
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason ?? error;
      const authError = await authFailure(error, this.server.name, this.#authMode);
      if (authError) throw authError;
      const code = errorCode(error);
      if (this.#state === 'crashed' || this.#state === 'closed' || code === -32000) {
        const reason = this.#lastTransportError ? ` (${this.#lastTransportError})` : '';
        throw this.#unavailable(
          `it ended during the call to ${toolName}${reason}; the outcome is unknown. It restarts at the next call after a backoff.`,
          error,
        );
      }
      if (code === -32001) {
        throw new McpError(
          MCP_ERROR_CODES.timeout,
          `The MCP server ${JSON.stringify(this.server.name)} did not answer ${toolName} within ${this.timeoutMs} ms; the call was cancelled on the server. Raise "timeoutMs" in its entry if the tool needs longer.`,
          { cause: error },
        );
      }
      throw new McpError(
        MCP_ERROR_CODES.protocolError,
        `The MCP server ${JSON.stringify(this.server.name)} refused the call to ${toolName}: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      this.#callsInFlight.delete(inFlight);
      options.signal.removeEventListener('abort', forward);
    }
  }

  /**
   * Whose question a server's elicitation is: the session of the calls in flight when they all
   * belong to one, and the call when it is the only one. The protocol does not say which request a
   * server's request serves, so with calls of several sessions in flight nobody is named.
   */
  #askingOrigin(): ElicitationOrigin {
    const calls = [...this.#callsInFlight];
    const sessions = new Set(calls.map((call) => call.origin.sessionId));
    if (sessions.size !== 1) return {};
    const [sessionId] = sessions;
    if (sessionId === undefined) return {};
    const toolCallId = calls.length === 1 ? calls[0]!.origin.toolCallId : undefined;
    return toolCallId === undefined ? { sessionId } : { sessionId, toolCallId };
  }

  /**
   * Reads a resource (`resources/read`), such as one a tool result linked to. Throws like
   * {@link callTool}: `mcp_auth_required`, `mcp_server_unavailable`, `mcp_protocol_error`.
   */
  async readResource(uri: string, options: { signal: AbortSignal }): Promise<McpResourceContents[]> {
    const client = await this.connect();
    try {
      const result = await client.readResource({ uri }, { signal: options.signal, timeout: this.timeoutMs });
      return result.contents as McpResourceContents[];
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason ?? error;
      const authError = await authFailure(error, this.server.name, this.#authMode);
      if (authError) throw authError;
      throw new McpError(
        MCP_ERROR_CODES.protocolError,
        `The MCP server ${JSON.stringify(this.server.name)} could not read ${uri}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  /** Ends the server (stdio: SIGTERM, then SIGKILL) and refuses further calls. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#state = 'closed';
    const starting = this.#starting;
    if (starting) await starting.catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    if (client) await client.close().catch(() => undefined);
    this.#pid = undefined;
  }

  /** Kills a running stdio child at once; for process exit, where nothing can be awaited. */
  killNow(): void {
    if (this.#pid === undefined) return;
    try {
      process.kill(this.#pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
