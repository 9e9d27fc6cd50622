import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSha256, toModelToolSchema } from './model-tool-schema.js';

const readFileSchema = z.object({
  path: z.string().describe('Workspace-relative path'),
  maxBytes: z.number().int().positive().default(100_000),
});

describe('toModelToolSchema', () => {
  it('exposes input JSON Schema in which fields with defaults are optional', () => {
    const schema = toModelToolSchema({ name: 'read_file', description: 'Reads a file', inputSchema: readFileSchema });
    expect(schema.name).toBe('read_file');
    expect(schema.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
      properties: { path: { type: 'string', description: 'Workspace-relative path' }, maxBytes: { default: 100_000 } },
    });
    expect(schema.inputSchema).not.toHaveProperty('$schema');
    expect(schema.schemaSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the same hash for the same tool, and a different one when the schema changes', () => {
    const first = toModelToolSchema({ name: 'read_file', description: 'Reads a file', inputSchema: readFileSchema });
    const again = toModelToolSchema({ name: 'read_file', description: 'Reads a file', inputSchema: readFileSchema });
    const changed = toModelToolSchema({
      name: 'read_file',
      description: 'Reads a file',
      inputSchema: readFileSchema.extend({ encoding: z.string().optional() }),
    });
    expect(again.schemaSha256).toBe(first.schemaSha256);
    expect(changed.schemaSha256).not.toBe(first.schemaSha256);
  });

  it('shows a tool’s own inputJsonSchema exactly as given, hashed like any schema', () => {
    const own = { type: 'object', properties: { q: { type: 'string', pattern: '^a' } }, $schema: 'draft-07' };
    const schema = toModelToolSchema({
      name: 'mcp__s__t',
      description: 'd',
      inputSchema: z.object({}),
      inputJsonSchema: own,
    });
    expect(schema.inputSchema).toEqual(own);
    expect(schema.schemaSha256).toBe(
      toModelToolSchema({ name: 'mcp__s__t', description: 'd', inputSchema: z.string(), inputJsonSchema: { ...own } })
        .schemaSha256,
    );
  });

  it('does not throw on types JSON Schema cannot express', () => {
    const schema = toModelToolSchema({ name: 'when', description: 'd', inputSchema: z.object({ at: z.date() }) });
    expect(schema.inputSchema).toHaveProperty('properties');
  });
});

describe('canonicalJson', () => {
  it('is independent of key order at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}',
    );
    expect(canonicalSha256({ b: 1, a: 2 })).toBe(canonicalSha256({ a: 2, b: 1 }));
  });
});
