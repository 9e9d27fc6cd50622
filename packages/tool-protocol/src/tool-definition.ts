import type { z } from 'zod';
import type { JsonValue } from './model-tool-schema.js';
import type { ToolCapability } from './tool-capability.js';
import type { ToolExecutionContext } from './execution-context.js';
import type { ToolRisk } from './tool-risk.js';
import { assertZod4Schema } from './zod-version.js';

/**
 * Words that help `search_tools` find a tool whose name does not say what it does. Data only:
 * bounded and never interpreted.
 */
export interface ToolSearchMetadata {
  /** Other names a person or model might use, for example `db migration`. */
  readonly aliases?: readonly string[];
  /** Topic words, for example `database`. */
  readonly tags?: readonly string[];
  /** One sentence on when to use the tool. */
  readonly searchHint?: string;
}

/**
 * An input field that names a workspace path, so permission rules match the path the tool will
 * touch (resolved as the tool resolves it) rather than the text the model wrote:
 * - `target`: a file or folder the tool reads or changes (`path`, and both `from` and `to` of a rename);
 * - `scope`: a folder whose whole subtree the tool reads; absent means the workspace root;
 * - `glob`: a glob whose static folder prefix is the scope (`src/**\/*.ts` reads below `src`);
 * - `patch`: a unified diff; every file it names (old and new side) is a target (`apply_patch`).
 */
export interface ToolPathArgument {
  /** The input field's name. */
  readonly name: string;
  readonly role: 'target' | 'scope' | 'glob' | 'patch';
}

/**
 * A tool as its author writes it: how the model describes and calls it, how its input is
 * validated, what risk it carries and whether it may run in a read-only parallel batch.
 * The runtime never trusts `risk` alone: see `resolveToolSecurity`.
 */
export interface ToolDefinition<Input = unknown, Output = unknown> {
  /** Unique name the model calls, for example `read_file`. */
  readonly name: string;
  /** What the tool does, for the model. */
  readonly description: string;
  /** The declared risk; the capability floor may raise it, never lower it. */
  readonly risk: ToolRisk;
  /** Everything the tool can reach. Missing or unknown capabilities mean all of them. */
  readonly capabilities: readonly ToolCapability[];
  /** Whether the tool may run in parallel with other concurrency-safe read-only calls. */
  readonly concurrencySafe: boolean;
  /** The zod schema that validates input; the model sees its JSON Schema. */
  readonly inputSchema: z.ZodType<Input>;
  /** A one-line human summary of a call, for logs and approval prompts. */
  summarize(input: Input): string;
  /**
   * Runs the call. May return a string, a ToolExecutionResult or any value; a host (core)
   * normalises it. `Output` is what this tool returns to a direct caller: clawsmith's own tools
   * return a `ToolExecutionResult` for every outcome they report and throw a `ClawsmithError`
   * (with a stable `code`) for a refusal, which core turns into a result.
   */
  execute(input: Input, context: ToolExecutionContext): Promise<Output>;
  /** Extra words for `search_tools`. */
  readonly searchMetadata?: ToolSearchMetadata;
  /** When true, the tool is kept out of model requests until `search_tools` activates it. */
  readonly deferred?: boolean;
  /**
   * The input fields that name workspace paths. A tool that names paths without declaring them
   * is matched by the field names `path`, `from`, `to`, `source`, `target`, `destination`.
   */
  readonly pathArguments?: readonly ToolPathArgument[];
  /**
   * The JSON Schema the model is shown, for a tool that brings its own (an MCP server's tool):
   * sent exactly as given instead of one generated from `inputSchema`, which still validates.
   */
  readonly inputJsonSchema?: { readonly [key: string]: JsonValue };
}

/** A tool definition of any input type, as a tool table holds it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any>;

/** The definition {@link defineTool} takes: the input type is inferred from `inputSchema`. */
export interface ToolDefinitionInput<Schema extends z.ZodType, Output = unknown> {
  readonly name: string;
  readonly description: string;
  readonly risk: ToolRisk;
  readonly capabilities: readonly ToolCapability[];
  readonly concurrencySafe: boolean;
  readonly inputSchema: Schema;
  summarize(input: z.output<Schema>): string;
  execute(input: z.output<Schema>, context: ToolExecutionContext): Promise<Output>;
  readonly searchMetadata?: ToolSearchMetadata;
  readonly deferred?: boolean;
  readonly pathArguments?: readonly ToolPathArgument[];
  readonly inputJsonSchema?: { readonly [key: string]: JsonValue };
}

/**
 * Defines a tool whose `execute` and `summarize` receive input typed from its zod schema.
 * Returns a frozen definition. Throws a `ClawsmithError` with code `unsupported_schema` when the
 * schema is not a zod 4 schema (zod 3's schemas share names but not internals).
 */
export function defineTool<Schema extends z.ZodType, Output>(
  definition: ToolDefinitionInput<Schema, Output>,
): ToolDefinition<z.output<Schema>, Output> {
  assertZod4Schema(definition.inputSchema, definition.name);
  return Object.freeze({ ...definition }) as ToolDefinition<z.output<Schema>, Output>;
}
