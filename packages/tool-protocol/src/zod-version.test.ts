import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { ClawsmithError } from './clawsmith-error.js';
import { defineTool } from './tool-definition.js';
import { toModelToolSchema } from './model-tool-schema.js';

function toolWith(inputSchema: unknown) {
  return {
    name: 'legacy_tool',
    description: 'A tool written against another zod.',
    risk: 'read' as const,
    capabilities: ['filesystem.read' as const],
    concurrencySafe: true,
    inputSchema: inputSchema as z.ZodType<{ path: string }>,
    summarize: () => 'legacy',
    execute: async () => 'ok',
  };
}

function thrown(action: () => unknown): ClawsmithError {
  try {
    action();
  } catch (error) {
    if (ClawsmithError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ClawsmithError');
}

describe('zod version check', () => {
  it('defineTool names the required zod version for a zod 3 schema', () => {
    const error = thrown(() => defineTool(toolWith(z3.object({ path: z3.string() }))));
    expect(error.code).toBe('unsupported_schema');
    expect(error.message).toContain('zod 3 schema');
    expect(error.message).toContain('zod ^4.0.0');
  });

  it('toModelToolSchema refuses a zod 3 schema with the same error', () => {
    const error = thrown(() => toModelToolSchema(toolWith(z3.object({ path: z3.string() }))));
    expect(error.code).toBe('unsupported_schema');
  });

  it('refuses a plain JSON Schema and says how to convert it', () => {
    const error = thrown(() => defineTool(toolWith({ type: 'object', properties: { path: { type: 'string' } } })));
    expect(error.message).toContain('z.fromJSONSchema');
  });

  it('accepts zod 4 schemas, including one converted from JSON Schema', () => {
    expect(defineTool(toolWith(z.object({ path: z.string() }))).name).toBe('legacy_tool');
    const converted = z.fromJSONSchema({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    expect(toModelToolSchema(toolWith(converted)).inputSchema).toMatchObject({ required: ['path'] });
  });
});
