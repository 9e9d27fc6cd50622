/** A server's request for input from the person (`elicitation/create`, form mode). */
export interface McpElicitationRequest {
  /** The configured name of the server that asks. */
  readonly server: string;
  /** What the server says it needs; the server's words, shown as text only. */
  readonly message: string;
  /** The JSON Schema of the answer: an object of flat string, number, boolean or enum fields. */
  readonly requestedSchema: Record<string, unknown>;
  /**
   * The session whose call the server was answering when it asked, when every call in flight on
   * that server belongs to one session (a host with several people routes the question by it).
   */
  readonly sessionId?: string;
  /** The tool call the server was answering, when exactly one was in flight. */
  readonly toolCallId?: string;
}

/** Which session and call a question belongs to, as far as the calls in flight tell. */
export interface ElicitationOrigin {
  readonly sessionId?: string;
  readonly toolCallId?: string;
}

/** The person's answer: `accept` with the content, `decline` (no), or `cancel` (dismissed). */
export type McpElicitationAnswer =
  | { readonly action: 'accept'; readonly content: Record<string, string | number | boolean | string[]> }
  | { readonly action: 'decline' | 'cancel' };

/**
 * Asks the person. A host with someone at hand (the CLI's chat, a web page, an ACP client)
 * plugs one in; `undefined` means nobody can answer now, and the request is declined.
 */
export type McpElicitationHandler = (
  request: McpElicitationRequest,
) => Promise<McpElicitationAnswer | undefined> | McpElicitationAnswer | undefined;

/** The `_meta` key under which a decline says why. */
export const ELICITATION_DECLINE_REASON_KEY = 'clawsmith/reason';

function decline(reason: string) {
  return { action: 'decline' as const, _meta: { [ELICITATION_DECLINE_REASON_KEY]: reason } };
}

/**
 * Answers one `elicitation/create`: to the handler when there is one and the request is a form;
 * otherwise declined, with the reason in `_meta` and in a notice. A handler that fails declines.
 */
export async function answerElicitation(
  server: string,
  params: { mode?: string; message: string; requestedSchema?: unknown },
  handler: McpElicitationHandler | undefined,
  onNotice: ((notice: string) => void) | undefined,
  origin: ElicitationOrigin = {},
): Promise<Record<string, unknown>> {
  const refuse = (reason: string) => {
    onNotice?.(`MCP server ${server} asked for input; declined: ${reason}`);
    return decline(reason);
  };
  if (params.mode !== undefined && params.mode !== 'form')
    return refuse(`clawsmith answers only form requests, not ${JSON.stringify(params.mode).slice(0, 40)}.`);
  if (!handler) return refuse('nobody can answer in this session (it runs without a person at the terminal).');
  try {
    const answer = await handler({
      server,
      message: params.message,
      requestedSchema: (params.requestedSchema ?? { type: 'object', properties: {} }) as Record<string, unknown>,
      ...origin,
    });
    if (!answer) return refuse('nobody could answer it now.');
    return answer.action === 'accept' ? { action: 'accept', content: answer.content } : { action: answer.action };
  } catch (error) {
    return refuse(`asking failed (${(error as Error).message.slice(0, 200)}).`);
  }
}
