import type { ApprovalAnswer, ApprovalRequest } from '@clawsmith/core';
import type {
  AgentContext,
  PermissionOption,
  RequestPermissionResponse,
  ToolCallContent,
} from '@agentclientprotocol/sdk';
import { toolCallView } from './tool-call-view.js';

/** The options every approval offers, with the answer each one gives core. */
export const PERMISSION_OPTIONS: readonly (PermissionOption & { readonly answer: ApprovalAnswer })[] = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once', answer: 'allow' },
  { optionId: 'allow-session', name: 'Allow always (this session)', kind: 'allow_always', answer: 'allow-session' },
  { optionId: 'deny', name: 'Reject', kind: 'reject_once', answer: 'deny' },
];

/** How long an editor may leave an approval unanswered before it counts as a denial; default 10 minutes. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60 * 1000;

/** What the bridge needs from the connection and the session it asks for. */
export interface PermissionBridgeOptions {
  readonly client: AgentContext;
  readonly workspaceRoot: string;
  /** Resolves once every update sent before the question reached the editor (the call's `tool_call`). */
  readonly flushUpdates: () => Promise<void>;
  readonly timeoutMs?: number;
}

function preview(request: ApprovalRequest, workspaceRoot: string): ToolCallContent[] {
  const input = (typeof request.input === 'object' && request.input !== null ? request.input : {}) as Record<
    string,
    unknown
  >;
  const path = toolCallView(workspaceRoot, request.toolName, input).locations[0]?.path;
  if (request.toolName === 'edit_file' && path && typeof input.newText === 'string')
    return [
      { type: 'diff', path, oldText: typeof input.oldText === 'string' ? input.oldText : null, newText: input.newText },
    ];
  if (request.toolName === 'write_file' && path && typeof input.content === 'string')
    return [{ type: 'diff', path, oldText: null, newText: input.content }];
  return [{ type: 'content', content: { type: 'text', text: `${request.summary}\n\n${request.reason}` } }];
}

/**
 * Asks the editor with `session/request_permission`. The person's choice is returned as core's
 * answer; a `cancelled` outcome (the turn was cancelled) is a denial. An error answer, a closed
 * connection or no answer within the time limit throws, which core records as a denial with
 * that reason, never as the person's.
 */
export async function askEditor(
  options: PermissionBridgeOptions,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  await options.flushUpdates();
  if (signal.aborted) return 'deny';
  const timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const view = toolCallView(options.workspaceRoot, request.toolName, request.input);
  let response: RequestPermissionResponse;
  try {
    response = await options.client.request(
      'session/request_permission',
      {
        sessionId: request.sessionId,
        toolCall: {
          toolCallId: request.toolCallId,
          title: view.title,
          kind: view.kind,
          status: 'pending',
          locations: view.locations,
          content: preview(request, options.workspaceRoot),
          rawInput: request.input,
        },
        options: PERMISSION_OPTIONS.map(({ optionId, name, kind }) => ({ optionId, name, kind })),
      },
      { cancellationSignal: AbortSignal.any([signal, timeout]), stopWaitingOnCancel: true },
    );
  } catch (error) {
    if (signal.aborted) return 'deny';
    if (timeout.aborted)
      throw new Error(`the editor did not answer session/request_permission within ${Math.round(timeoutMs / 1000)} s`);
    throw new Error(
      `the editor answered session/request_permission with an error: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (response.outcome.outcome !== 'selected') return 'deny';
  const optionId = response.outcome.optionId;
  const chosen = PERMISSION_OPTIONS.find((option) => option.optionId === optionId);
  if (!chosen)
    throw new Error(`the editor chose an option clawsmith did not offer (${JSON.stringify(optionId).slice(0, 60)})`);
  return chosen.answer;
}
