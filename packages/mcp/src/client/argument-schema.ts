import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { z } from 'zod';

// One validator instance per process: Ajv caches compiled schemas and compiling is the cost.
let shared: AjvJsonSchemaValidator | undefined;

type Compiled = { ok: true; validate: JsonSchemaValidator<unknown> } | { ok: false; problem: string };

// Built once: each tool's schema is a refinement of it. Building a fresh record schema per tool
// was most of the cost of opening a table of MCP tools (zod 4 schema construction is not cheap).
const ANY_OBJECT = z.record(z.string(), z.unknown());

/**
 * A zod schema that validates a call's arguments against the server's own JSON Schema with Ajv
 * (the validator the MCP SDK itself uses; draft-07 and 2020-12 keywords, formats). zod 4's
 * `fromJSONSchema` covers fewer keywords, so it is not used. The schema compiles on first use,
 * so building a tool table compiles nothing. A schema Ajv cannot compile only requires an object
 * (the server validates again) and says so in the issue text of any failure.
 */
export function argumentSchema(jsonSchema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  let compiled: Compiled | undefined;
  const compile = (): Compiled => {
    if (compiled) return compiled;
    try {
      shared ??= new AjvJsonSchemaValidator();
      compiled = { ok: true, validate: shared.getValidator(jsonSchema as never) };
    } catch (error) {
      compiled = { ok: false, problem: (error as Error).message };
    }
    return compiled;
  };
  return ANY_OBJECT.superRefine((value, context) => {
    const current = compile();
    if (!current.ok) return;
    const result = current.validate(value);
    if (!result.valid) {
      context.addIssue({
        code: 'custom',
        message: `The arguments do not match the server's schema: ${result.errorMessage.replace(/\bdata\b/g, 'arguments')}.`,
      });
    }
  });
}
