import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError as ProtocolError,
  ErrorCode,
  ReadResourceRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { eitherSignal } from '@clawsmith/platform';
import { ClawsmithError } from '@clawsmith/tool-protocol';
import { checkOwnToolArguments } from './own-tool-arguments.js';
import { progressForwarder, progressTokenOf } from './progress-forwarding.js';
import { traceContextOfMeta } from '../trace-meta.js';
import { RESTORE_POINT_TOOLS, CHANGES_TOOL_NAME, UNDO_TOOL_NAME } from './restore-point-tools.js';
import { SERVED_OUTPUT_SCHEMA, plainResult, servedCallResult, type ServedCallResult } from './served-call-result.js';
import type { ServedApprover, ServedCallOutcome, ServedSession, ServedWorkspace } from './served-session.js';
import { artifactUri, parseServedUri, restorePointUri } from './served-uris.js';
import { toolAnnotations } from './tool-annotations.js';

/** Options of {@link createServedMcpServer}. */
export interface ServedMcpServerOptions {
  readonly workspace: ServedWorkspace;
  /** The server's name and version in `initialize`. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** How long a person may take to answer an approval through elicitation; default 10 minutes. */
  readonly approvalTimeoutMs?: number;
}

/** One MCP connection served: the SDK server and when its session is closed. */
export interface ServedConnection {
  readonly server: Server;
  /** The clawsmith session, once the client initialised (undefined before). */
  sessionId(): string | undefined;
  /** Resolves after the connection closed, its calls settled and its session ended. */
  readonly closed: Promise<void>;
}

const INSTRUCTIONS = (workspace: ServedWorkspace) =>
  `clawsmith serves its tools on ${workspace.workspaceRoot} in permission mode ${workspace.permissionMode}. ` +
  'Every call runs through clawsmith: the workspace path boundary, protected paths, hard refusals, the command sandbox and permissions. ' +
  `Every call that changes files gets its own restore point: ${CHANGES_TOOL_NAME} lists them (diffs on request), ${UNDO_TOOL_NAME} takes them back without overwriting later edits. ` +
  'Deferred tools appear after search_tools activates them (tools/list_changed is sent). Large outputs come as resource links to artifacts: read them with read_artifact or resources/read.';

type CallHandler = Parameters<Server['setRequestHandler']>[1];

/**
 * Registers the `tools/call` handler on the protocol layer, past the SDK `Server`'s wrapper:
 * that wrapper parses every request a second time and every result once more with zod, on top
 * of the protocol layer's own parse. The results here are built by `servedCallResult` and
 * `plainResult` (typed, tested against the SDK's schema), and the client validates them again;
 * the two parses were a measurable part of the server's own cost per call.
 */
function setCallToolHandler(
  server: Server,
  handler: (request: CallToolRequest, extra: CallExtra) => Promise<ServedCallResult>,
): void {
  (
    Protocol.prototype.setRequestHandler as (
      this: Server,
      schema: typeof CallToolRequestSchema,
      run: CallHandler,
    ) => void
  ).call(server, CallToolRequestSchema, handler as unknown as CallHandler);
}
type CallToolRequest = { params: { name: string; arguments?: Record<string, unknown>; _meta?: unknown } };
type CallExtra = Parameters<CallHandler>[1];

function describeError(error: unknown): { code: string; message: string; retryable: boolean } {
  if (ClawsmithError.isInstance(error)) return { code: error.code, message: error.message, retryable: error.retryable };
  return { code: 'tool_failed', message: error instanceof Error ? error.message : String(error), retryable: false };
}

/**
 * Serves a workspace over MCP for one connection: the client's connection is one clawsmith
 * session, opened when the client has initialised. Calls of the connection run one at a time,
 * each through the runtime's lifecycle, each with its own restore point. When the connection
 * closes, calls still running are cancelled and the session is closed.
 */
export function createServedMcpServer(options: ServedMcpServerOptions): ServedConnection {
  const server = new Server(options.serverInfo ?? { name: 'clawsmith', version: '0.1.0' }, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
    instructions: INSTRUCTIONS(options.workspace),
  });
  const connection = new AbortController();
  let opening: Promise<ServedSession> | undefined;
  let opened: ServedSession | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let listedNames: string | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const session = (): Promise<ServedSession> => {
    opening ??= (async () => {
      const client = server.getClientVersion();
      const served = await options.workspace.openSession({
        name: client?.name ?? 'unknown',
        version: client?.version ?? '',
      });
      opened = served;
      return served;
    })();
    return opening;
  };
  // One call at a time per session: a restore point per call needs calls not to overlap.
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const approverFor = (relatedRequestId: RequestId): ServedApprover | null => {
    if (!server.getClientCapabilities()?.elicitation?.form) return null;
    return async (request, signal) => {
      const answer = await server.elicitInput(
        {
          mode: 'form',
          message: `clawsmith asks before running ${request.toolName}: ${request.summary}\nRisk ${request.risk}; ${request.reason}.`,
          requestedSchema: {
            type: 'object',
            properties: {
              decision: {
                type: 'string',
                title: 'Allow this call?',
                enum: ['allow', 'allow-session', 'deny'],
                description: 'allow: this call only; allow-session: this tool for the rest of the session; deny.',
              },
            },
            required: ['decision'],
          },
        },
        { signal, relatedRequestId, timeout: options.approvalTimeoutMs ?? 600_000 },
      );
      if (answer.action !== 'accept') return 'deny';
      const decision = answer.content?.decision;
      return decision === 'allow' || decision === 'allow-session' ? decision : 'deny';
    };
  };

  const servedTools = async () => {
    const current = await session();
    const tools = await current.tools();
    return [...tools, ...RESTORE_POINT_TOOLS];
  };

  let activeTools: string | undefined;
  const noticeToolChanges = async (outcome: ServedCallOutcome) => {
    // Only a change of the activation can change the visible set: skip the listing otherwise.
    const active = outcome.activeTools?.join('\n');
    if (active !== undefined && active === activeTools) return;
    activeTools = active;
    if (listedNames === undefined) return;
    const names = (await servedTools()).map((tool) => tool.name).join('\n');
    if (names !== listedNames) {
      listedNames = names;
      await server.sendToolListChanged().catch(() => undefined);
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await servedTools();
    listedNames = tools.map((tool) => tool.name).join('\n');
    return {
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
        outputSchema: SERVED_OUTPUT_SCHEMA as unknown as { type: 'object'; [key: string]: unknown },
        annotations: toolAnnotations(tool.security),
      })),
    };
  });

  setCallToolHandler(server, async (request, extra): Promise<ServedCallResult> => {
    const current = await session();
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const { signal, release } = eitherSignal(extra.signal, connection.signal);
    try {
      const own = RESTORE_POINT_TOOLS.find((tool) => tool.name === name);
      if (own) {
        const problem = checkOwnToolArguments(own.inputSchema, args);
        if (problem)
          return plainResult('error', `The arguments of ${name} do not match its schema: ${problem}.`, {
            code: 'invalid_arguments',
            retryable: true,
          });
        const result = await serially(() => own.run(current, args));
        if (name === UNDO_TOOL_NAME && !result.isError) await server.sendResourceListChanged().catch(() => undefined);
        return result;
      }
      const progressToken = progressTokenOf(request.params);
      const traceContext = traceContextOfMeta(request.params);
      const outcome = await serially(() =>
        current.call(name, args, {
          signal,
          ...(progressToken !== undefined
            ? { onProgress: progressForwarder(progressToken, (notification) => extra.sendNotification(notification)) }
            : {}),
          approver: approverFor(extra.requestId),
          ...(traceContext ? { traceContext } : {}),
          unattendedReason:
            'this MCP client cannot be asked (it does not support elicitation), so it is denied; start clawsmith mcp serve with another --permission-mode or add a permission rule',
        }),
      );
      await noticeToolChanges(outcome);
      if (outcome.changedFiles.length > 0) await server.sendResourceListChanged().catch(() => undefined);
      return servedCallResult(outcome);
    } catch (error) {
      const failure = describeError(error);
      return plainResult('error', failure.message, { code: failure.code, retryable: failure.retryable });
    } finally {
      release();
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const points = await (await session()).restorePoints();
    return {
      resources: points
        .filter((point) => point.files.length > 0 || point.notes.length > 0)
        .map((point) => ({
          uri: restorePointUri(point.restorePointId),
          name: `restore point #${point.sequence}${point.undone ? ' (undone)' : ''}`,
          description: `${point.label}: ${point.files.map((file) => `${file.change} ${file.path}`).join(', ')}`.slice(
            0,
            500,
          ),
          mimeType: 'application/json',
        })),
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'clawsmith://restore-points/{restorePointId}',
        name: 'restore point',
        description: 'What one call changed (files, lines, undone or not), as JSON.',
        mimeType: 'application/json',
      },
      {
        uriTemplate: 'clawsmith://artifacts/{artifactId}',
        name: 'artifact',
        description: 'The complete output of a call that was too large to send inline (first 1 MiB).',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const current = await session();
    const target = parseServedUri(request.params.uri);
    if (target?.kind === 'artifact') {
      try {
        const artifact = await current.readArtifact(target.id);
        const note = artifact.truncated
          ? `\n[First part only: ${artifact.byteLength} bytes in all; read the rest with read_artifact.]`
          : '';
        return {
          contents: [{ uri: artifactUri(target.id), mimeType: artifact.mediaType, text: artifact.text + note }],
        };
      } catch (error) {
        throw new ProtocolError(ErrorCode.InvalidParams, describeError(error).message);
      }
    }
    if (target?.kind === 'restore-point') {
      const point = (await current.restorePoints()).find((candidate) => candidate.restorePointId === target.id);
      if (point)
        return {
          contents: [
            { uri: restorePointUri(point.restorePointId), mimeType: 'application/json', text: JSON.stringify(point) },
          ],
        };
    }
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `No resource ${request.params.uri} in this session; list them with resources/list.`,
    );
  });

  server.onclose = () => {
    connection.abort(new Error('The MCP client disconnected.'));
    void (async () => {
      await queue;
      await opened?.close().catch(() => undefined);
      if (opening && !opened) await opening.then((late) => late.close()).catch(() => undefined);
      resolveClosed();
    })();
  };

  return { server, sessionId: () => opened?.sessionId, closed };
}
