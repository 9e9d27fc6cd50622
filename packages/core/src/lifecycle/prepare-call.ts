import {
  parseCallArguments,
  safeSummary,
  type CallFacts,
  type RequestPath,
  type ToolEntry,
} from '@clawsmith/tool-host';
import { checkToolCall, unknownToolResult } from '@clawsmith/deferred-tools';
import type { ModelToolCall } from '@clawsmith/providers';
import { TOOL_RESULT_CODES, canonicalJson, toolError, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { malformedCallResult } from './call-bounds.js';
import type { TurnContext } from './turn-context.js';

/** A call that passed every check before judgment, with its parsed input. */
export interface ReadyCall {
  readonly kind: 'ready';
  readonly call: ModelToolCall;
  readonly entry: ToolEntry;
  readonly input: unknown;
  readonly summary: string;
  /** The paths the call touches, resolved once when it is judged (see `requestPaths`). */
  readonly paths?: readonly RequestPath[];
  /** Everything the call touches (paths, parsed commands, URL host), resolved once when it is judged. */
  readonly facts?: CallFacts;
}

/** A call refused before judgment, with its result. */
export interface RefusedCall {
  readonly kind: 'refused';
  readonly call: ModelToolCall;
  readonly result: ToolExecutionResult;
}

export type PreparedCall = ReadyCall | RefusedCall;

function callKey(call: ModelToolCall): string {
  try {
    return `${call.name}\u0000${canonicalJson(JSON.parse(call.argumentsText))}`;
  } catch {
    return `${call.name}\u0000${call.argumentsText}`;
  }
}

/**
 * Checks one call in the contract's order: an id or name out of bounds, unknown name, deferred and inactive, duplicate (a
 * call id already used this turn, or the same call twice in this assistant message), arguments
 * that are not JSON, arguments that fail the schema. `messageCalls` holds the keys of the
 * message's earlier calls.
 */
export function prepareCall(turn: TurnContext, call: ModelToolCall, messageCalls: Set<string>): PreparedCall {
  const refuse = (result: ToolExecutionResult): RefusedCall => ({ kind: 'refused', call, result });
  const malformed = malformedCallResult(call);
  if (malformed) return refuse(malformed);
  const entry = turn.core.table.get(call.name);
  const gated = checkToolCall(turn.core.catalog, call.name, turn.activation);
  if (gated) return refuse(gated);
  // The catalog answers for search_tools by name; the table holds it only when a tool is deferred.
  if (!entry) return refuse(unknownToolResult(call.name, { searchable: false }));
  // A later step may repeat a call on purpose (re-read after an edit, re-run a test after a
  // fix); only a reused id or a repeat inside one message is a duplicate.
  if (turn.seenCallIds.has(call.id)) {
    return refuse(
      toolError(
        TOOL_RESULT_CODES.duplicateCall,
        `The tool call id ${JSON.stringify(call.id.slice(0, 100))} was already used in this turn; every call needs a new id.`,
      ),
    );
  }
  turn.seenCallIds.add(call.id);
  const key = callKey(call);
  if (messageCalls.has(key)) {
    return refuse(
      toolError(
        TOOL_RESULT_CODES.duplicateCall,
        `This exact ${call.name} call appears twice in one message; it ran once, use that result.`,
      ),
    );
  }
  messageCalls.add(key);
  // An empty text means `{}`; bad JSON is invalid_json, a schema failure invalid_arguments.
  const parsed = parseCallArguments(entry.tool, call.argumentsText);
  if (!parsed.ok) return refuse(parsed.result);
  return { kind: 'ready', call, entry, input: parsed.input, summary: safeSummary(entry.tool, parsed.input) };
}
