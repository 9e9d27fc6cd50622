import {
  TOOL_RESULT_CODES,
  toolError,
  type AnyToolDefinition,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';

/** The outcome of {@link parseCallArguments}: the validated input, or the refusal to answer with. */
export type ParsedArguments =
  { readonly ok: true; readonly input: unknown } | { readonly ok: false; readonly result: ToolExecutionResult };

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Parses a call's arguments and validates them with the tool's zod schema. `argumentsText` is
 * the JSON text a model sent (empty means `{}`); a value that is not a string is taken as the
 * parsed arguments (a framework that already parsed them). Refusals are `invalid_json` and
 * `invalid_arguments`, both retryable, with what to fix.
 */
export function parseCallArguments(tool: AnyToolDefinition, argumentsText: unknown): ParsedArguments {
  let parsed: unknown = argumentsText;
  if (typeof argumentsText === 'string') {
    try {
      parsed = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
    } catch (error) {
      const detail = error instanceof Error ? error.message : 'unparseable';
      return {
        ok: false,
        result: toolError(
          TOOL_RESULT_CODES.invalidJson,
          `The arguments of ${tool.name} are not valid JSON (${detail}). Send one JSON object that matches the tool's schema.`,
          { retryable: true },
        ),
      };
    }
  }
  const validated = tool.inputSchema.safeParse(parsed ?? {});
  if (!validated.success) {
    return {
      ok: false,
      result: toolError(
        TOOL_RESULT_CODES.invalidArguments,
        `The arguments of ${tool.name} do not match its schema: ${describeIssues(validated.error.issues)}. Fix them and call again.`,
        { retryable: true },
      ),
    };
  }
  return { ok: true, input: validated.data };
}

/** The tool's one-line summary of `input` (at most 300 characters), or its name when it has none or fails. */
export function safeSummary(tool: AnyToolDefinition, input: unknown): string {
  try {
    const summary = tool.summarize(input);
    return typeof summary === 'string' ? summary.slice(0, 300) : tool.name;
  } catch {
    return tool.name;
  }
}
