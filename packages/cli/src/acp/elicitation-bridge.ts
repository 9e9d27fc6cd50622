import type { AgentContext } from '@agentclientprotocol/sdk';
import type { McpElicitationAnswer, McpElicitationRequest } from '@clawsmith/mcp';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from './permission-bridge.js';

/** What the bridge needs from the connection and the session the question belongs to. */
export interface ElicitationBridgeOptions {
  readonly client: AgentContext;
  readonly sessionId: string;
  /** Resolves once every update sent before the question reached the editor (the call's `tool_call`). */
  readonly flushUpdates: () => Promise<void>;
  readonly timeoutMs?: number;
}

/** The answer values an MCP form accepts: flat strings, numbers, booleans and lists of strings. */
type FormValue = string | number | boolean | string[];

function formValues(content: Record<string, unknown> | null | undefined): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const [key, value] of Object.entries(content ?? {})) {
    const flat =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : Array.isArray(value) && value.every((item) => typeof item === 'string')
          ? (value as string[])
          : undefined;
    if (flat === undefined)
      throw new Error(`the editor answered ${JSON.stringify(key).slice(0, 60)} with a value a form cannot hold`);
    values[key] = flat;
  }
  return values;
}

/**
 * Puts an MCP server's question (form elicitation) to the person in the editor with ACP's
 * `elicitation/create`, scoped to the session (and the tool call when known). The server's
 * words go out as the message, prefixed with its name, so the person knows who asks. An error
 * answer or no answer within the time limit throws, which the MCP client turns into a decline
 * with that reason, never into the person's answer.
 */
export async function askEditorForm(
  options: ElicitationBridgeOptions,
  request: McpElicitationRequest,
): Promise<McpElicitationAnswer> {
  await options.flushUpdates();
  const timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: { action: string; content?: Record<string, unknown> | null };
  try {
    response = (await options.client.request(
      'elicitation/create',
      {
        sessionId: options.sessionId,
        ...(request.toolCallId ? { toolCallId: request.toolCallId } : {}),
        mode: 'form',
        message: `The MCP server ${request.server} asks: ${request.message}`,
        requestedSchema: request.requestedSchema,
      },
      { cancellationSignal: timeout, stopWaitingOnCancel: true },
    )) as { action: string; content?: Record<string, unknown> | null };
  } catch (error) {
    if (timeout.aborted)
      throw new Error(`the editor did not answer elicitation/create within ${Math.round(timeoutMs / 1000)} s`);
    throw new Error(
      `the editor answered elicitation/create with an error: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (response.action === 'accept') return { action: 'accept', content: formValues(response.content) };
  if (response.action === 'decline' || response.action === 'cancel') return { action: response.action };
  throw new Error(
    `the editor answered with an action clawsmith does not know (${JSON.stringify(response.action).slice(0, 40)})`,
  );
}
