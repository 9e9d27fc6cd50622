import { ClawsmithError } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { findJsonSyntaxError } from './json-syntax-error.js';

const toolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});

const responseSchema = z.strictObject({
  text: z.string().optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  usage: z
    .strictObject({
      inputTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
      cacheReadTokens: z.number().int().nonnegative().optional(),
      cacheWriteTokens: z.number().int().nonnegative().optional(),
    })
    .optional(),
  /** How the response ends; default `tool-calls` with tool calls, else `stop`. */
  finishReason: z.enum(['stop', 'tool-calls', 'length', 'error']).optional(),
  /** The model the response says it came from (`finish.model`); default none. */
  model: z.string().min(1).optional(),
});

const childScriptSchema = z.strictObject({ responses: z.array(responseSchema) });

const scriptSchema = z.strictObject({
  responses: z.array(responseSchema),
  /**
   * Scripts of subagents, by the id of the tool call that delegates them (`delegate_task`,
   * `delegate_background`, `delegate_worktree`): each child replays its own responses.
   */
  children: z.record(z.string().min(1), childScriptSchema).optional(),
});

/** One tool call in a script. `arguments`: an object is sent as JSON, a string exactly as written. */
export type ScriptedToolCall = z.infer<typeof toolCallSchema>;
/** One scripted model response: text, tool calls (several are a batch), or both. */
export type ScriptedResponse = z.infer<typeof responseSchema>;
/** A script: the responses, one per model request, in order; `children` scripts subagents by delegating call id. */
export type ModelScript = z.infer<typeof scriptSchema>;

/** Where in a script file a problem is: a line and column for JSON syntax, a JSON path for the shape. */
export type ModelScriptLocation =
  | { readonly kind: 'position'; readonly line: number; readonly column: number }
  | { readonly kind: 'path'; readonly path: string };

/** A script that cannot be used: `invalid_script` (malformed) or `script_unreadable` (no such file). */
export class ModelScriptError extends ClawsmithError {
  /** The file (or other source name) the script came from. */
  readonly source: string;
  /** Where the problem is, when it has a place. */
  readonly location: ModelScriptLocation | undefined;

  constructor(
    code: 'invalid_script' | 'script_unreadable',
    source: string,
    message: string,
    location?: ModelScriptLocation,
    cause?: unknown,
  ) {
    super(code, message, { cause });
    this.name = 'ModelScriptError';
    this.source = source;
    this.location = location;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** The JSON path of a zod issue, as `responses[2].toolCalls[0].name`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let formatted = '';
  for (const key of path) {
    if (typeof key === 'number') formatted += `[${key}]`;
    else formatted += formatted === '' ? String(key) : `.${String(key)}`;
  }
  return formatted === '' ? '(the top level)' : formatted;
}

const FORMAT_HINT =
  'A script is {"responses": [{"text"?: string, "toolCalls"?: [{"id"?: string, "name": string, "arguments"?: object | string}]}], "children"?: {"<delegating call id>": {"responses": [...]}}}.';

/** Validates an already-parsed script; the error names the first problem by its JSON path. */
export function validateModelScript(value: unknown, sourceName = 'script'): ModelScript {
  const parsed = scriptSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = formatJsonPath(issue?.path ?? []);
  let reason = issue?.message ?? 'invalid';
  if (issue?.code === 'unrecognized_keys')
    reason = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  throw new ModelScriptError('invalid_script', sourceName, `${sourceName}: ${path}: ${reason}. ${FORMAT_HINT}`, {
    kind: 'path',
    path,
  });
}

/**
 * Parses the text of a script file. A JSON syntax error names its line and column; a shape
 * error names its JSON path, as `responses[2].toolCalls[0].name`. Both throw `invalid_script`.
 */
export function parseModelScript(text: string, sourceName = 'script'): ModelScript {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const located = findJsonSyntaxError(body) ?? {
      offset: body.length,
      reason: error instanceof Error ? error.message : String(error),
    };
    const { line, column } = lineAndColumn(body, located.offset);
    throw new ModelScriptError(
      'invalid_script',
      sourceName,
      `${sourceName}:${line}:${column}: not valid JSON: ${located.reason}. Fix the syntax there. ${FORMAT_HINT}`,
      { kind: 'position', line, column },
      error,
    );
  }
  return validateModelScript(value, sourceName);
}
