import type { RequestPath } from '../permissions/request-paths.js';
import { checkToolCall, unknownToolResult } from '@clawsmith/deferred-tools';
import type { ModelToolCall } from '@clawsmith/providers';
import { TOOL_RESULT_CODES, canonicalJson, toolError, type ToolExecutionResult } from '@clawsmith/tool-protocol';
import { malformedCallResult } from './call-bounds.js';
import type { TurnContext } from './turn-context.js';
import type { ToolEntry } from './tool-table.js';

/** A call that passed every check before judgment, with its parsed input. */
export interface ReadyCall {
  readonly kind: 'ready';
  readonly call: ModelToolCall;
  readonly entry: ToolEntry;
  readonly input: unknown;
  readonly summary: string;
  /** The paths the call touches, resolved once when it is judged (see `requestPaths`). */
  readonly paths?: readonly RequestPath[];
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

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)'}: ${issue.message}`)
    .join('; ');
}

export function safeSummary(entry: ToolEntry, input: unknown): string {
  try {
    const summary = entry.tool.summarize(input);
    return typeof summary === 'string' ? summary.slice(0, 300) : entry.tool.name;
  } catch {
    return entry.tool.name;
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
  let parsed: unknown;
  try {
    parsed = call.argumentsText.trim() === '' ? {} : JSON.parse(call.argumentsText);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unparseable';
    return refuse(
      toolError(
        TOOL_RESULT_CODES.invalidJson,
        `The arguments of ${call.name} are not valid JSON (${detail}). Send one JSON object that matches the tool's schema.`,
        { retryable: true },
      ),
    );
  }
  const validated = entry.tool.inputSchema.safeParse(parsed);
  if (!validated.success) {
    return refuse(
      toolError(
        TOOL_RESULT_CODES.invalidArguments,
        `The arguments of ${call.name} do not match its schema: ${describeIssues(validated.error.issues)}. Fix them and call again.`,
        { retryable: true },
      ),
    );
  }
  return { kind: 'ready', call, entry, input: validated.data, summary: safeSummary(entry, validated.data) };
}
