import { toModelToolSchema, type AnyToolDefinition, type JsonValue } from '@clawsmith/tool-protocol';
import { z } from 'zod';

type JsonSchemaObject = { readonly [key: string]: JsonValue };

const PRIMITIVE_TYPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number',
  integer: (value) => Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  array: Array.isArray,
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
};

/**
 * A validator for a plugin tool that brings only a JSON Schema (no zod): the arguments must be an
 * object holding the schema's `required` keys, and top-level properties with a simple `type` must
 * have it. The model is shown the schema as given; deeper keywords are the tool's to check.
 */
function jsonSchemaValidator(schema: JsonSchemaObject): z.ZodType<Record<string, unknown>> {
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === 'string') : [];
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null && !Array.isArray(schema.properties)
      ? (schema.properties as Record<string, { type?: unknown }>)
      : {};
  return z.record(z.string(), z.unknown()).superRefine((value, context) => {
    for (const key of required as string[])
      if (!(key in value)) context.addIssue({ code: 'custom', message: `${key} is required`, path: [key] });
    for (const [key, property] of Object.entries(properties)) {
      const check = typeof property?.type === 'string' ? PRIMITIVE_TYPES[property.type] : undefined;
      if (key in value && check && !check(value[key]))
        context.addIssue({ code: 'custom', message: `${key} must be of type ${String(property.type)}`, path: [key] });
    }
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The tool a plugin exported, as the core will hold it: only the known fields are copied (risk
 * and capabilities as declared, so core's floors judge them: unknown or missing capabilities mean
 * risk `execute`), `deferred` unless the person listed it as always loaded, and a validator from
 * its JSON Schema when it brings no zod schema. Returns a problem text for an unusable export.
 */
export function pluginTool(exported: unknown, alwaysLoaded: boolean): AnyToolDefinition | string {
  if (!isObject(exported)) return 'an export in the tools list is not an object';
  const name = exported.name;
  if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name))
    return `a tool has no valid name (letters, digits, _ and -, at most 64): ${JSON.stringify(String(name)).slice(0, 80)}`;
  if (typeof exported.description !== 'string' || exported.description.length === 0)
    return `tool ${name} has no description`;
  if (typeof exported.execute !== 'function') return `tool ${name} has no execute function`;
  const schema = exported.inputSchema as { safeParse?: unknown } | undefined;
  const jsonSchema = isObject(exported.inputJsonSchema) ? (exported.inputJsonSchema as JsonSchemaObject) : undefined;
  if (typeof schema?.safeParse !== 'function' && jsonSchema === undefined)
    return `tool ${name} has neither a zod inputSchema nor an inputJsonSchema object`;
  const execute = exported.execute as AnyToolDefinition['execute'];
  const summarize = exported.summarize;
  const tool: AnyToolDefinition = Object.freeze({
    name,
    description: exported.description,
    risk: exported.risk as AnyToolDefinition['risk'],
    capabilities: exported.capabilities as AnyToolDefinition['capabilities'],
    concurrencySafe: exported.concurrencySafe === true,
    inputSchema:
      typeof schema?.safeParse === 'function'
        ? (schema as AnyToolDefinition['inputSchema'])
        : jsonSchemaValidator(jsonSchema as JsonSchemaObject),
    ...(jsonSchema ? { inputJsonSchema: jsonSchema } : {}),
    ...(isObject(exported.searchMetadata) ? { searchMetadata: exported.searchMetadata } : {}),
    ...(Array.isArray(exported.pathArguments) ? { pathArguments: exported.pathArguments } : {}),
    ...(alwaysLoaded ? {} : { deferred: true }),
    summarize(input: unknown) {
      try {
        return typeof summarize === 'function' ? String(summarize.call(exported, input)) : name;
      } catch {
        return name;
      }
    },
    execute: async (input: unknown, context: Parameters<AnyToolDefinition['execute']>[1]) =>
      execute.call(exported, input, context),
  });
  try {
    toModelToolSchema(tool);
  } catch (error) {
    return `tool ${name}'s input schema cannot be shown to the model (${(error as Error).message}); export inputJsonSchema`;
  }
  return tool;
}
