import type { ModelToolCall } from '@clawsmith/providers';
import { TOOL_RESULT_CODES, toolError, type ToolExecutionResult } from '@clawsmith/tool-protocol';

/**
 * Protocol bounds on one assistant message. A model (or a hostile provider) can send any number
 * of calls with ids and names of any length; past these bounds the calls are answered with an
 * error instead of run, so the turn, the store and later turns stay healthy.
 */
export const TOOL_CALL_BOUNDS = Object.freeze({
  /** Calls run per assistant message; the rest are answered with `too_many_tool_calls`. */
  callsPerMessage: 100,
  /** Longest tool call id, in characters (providers use 20 to 60). */
  idLength: 256,
  /** Longest tool name, in characters. */
  nameLength: 128,
});

/** The refusal of a call with an empty or oversized id or name, or undefined when both are in bounds. */
export function malformedCallResult(call: ModelToolCall): ToolExecutionResult | undefined {
  const { idLength, nameLength } = TOOL_CALL_BOUNDS;
  if (call.id.length === 0 || call.id.length > idLength)
    return toolError(
      TOOL_RESULT_CODES.invalidToolCall,
      `This tool call's id has ${call.id.length} characters; ids must have 1 to ${idLength}. The call did not run; call again with a short id.`,
    );
  if (call.name.length === 0 || call.name.length > nameLength)
    return toolError(
      TOOL_RESULT_CODES.invalidToolCall,
      `This tool call's name has ${call.name.length} characters; tool names have 1 to ${nameLength}. The call did not run; call one of the tools you were given.`,
    );
  return undefined;
}

/** The answer to a call past the per-message cap. */
export function excessCallResult(): ToolExecutionResult {
  const { callsPerMessage } = TOOL_CALL_BOUNDS;
  return toolError(
    TOOL_RESULT_CODES.tooManyToolCalls,
    `This call did not run: one message may hold at most ${callsPerMessage} tool calls, and the ones after that are answered with this error. Send the remaining calls in your next message.`,
    { retryable: true },
  );
}
