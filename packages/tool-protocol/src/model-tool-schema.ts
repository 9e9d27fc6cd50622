import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AnyToolDefinition } from './tool-definition.js';
import { assertZod4Schema } from './zod-version.js';

/** A JSON value, as produced by JSON Schema generation. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What the model is shown of a tool. */
export interface ModelToolSchema {
  /** The tool's name. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** JSON Schema of the input, as the model may write it (defaults optional). */
  readonly inputSchema: { readonly [key: string]: JsonValue };
  /** SHA-256 (hex) of the canonical serialisation of name, description and inputSchema. */
  readonly schemaSha256: string;
}

/**
 * Serialises `value` as JSON with object keys sorted at every depth, so that two equal values
 * serialise identically whatever their key order.
 */
export function canonicalJson(value: unknown): string {
  const sort = (current: unknown): unknown => {
    if (Array.isArray(current)) return current.map(sort);
    if (typeof current === 'object' && current !== null) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(current).sort()) sorted[key] = sort((current as Record<string, unknown>)[key]);
      return sorted;
    }
    return current;
  };
  return JSON.stringify(sort(value)) ?? 'null';
}

/** SHA-256 (hex) of {@link canonicalJson} of `value`. */
export function canonicalSha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/**
 * The model-facing view of a tool: name, description, and the JSON Schema of its input
 * generated from its zod schema (`io: 'input'`, so fields with defaults are optional), with a
 * stable `schemaSha256`. A tool that brings its own `inputJsonSchema` is shown that schema as given.
 */
export function toModelToolSchema(
  tool: Pick<AnyToolDefinition, 'name' | 'description' | 'inputSchema' | 'inputJsonSchema'>,
): ModelToolSchema {
  assertZod4Schema(tool.inputSchema, tool.name);
  if (tool.inputJsonSchema !== undefined) {
    const exposed = { name: tool.name, description: tool.description, inputSchema: tool.inputJsonSchema };
    return Object.freeze({ ...exposed, schemaSha256: canonicalSha256(exposed) });
  }
  const generated = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    JsonValue
  >;
  const { $schema: _dialect, ...inputSchema } = generated;
  const exposed = { name: tool.name, description: tool.description, inputSchema };
  return Object.freeze({ ...exposed, schemaSha256: canonicalSha256(exposed) });
}
