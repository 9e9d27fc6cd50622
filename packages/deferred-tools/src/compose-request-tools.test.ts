import { createHash } from 'node:crypto';
import { defineTool, toModelToolSchema } from '@clawsmith/tool-protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deferredTool, tool } from './__fixtures__/tools.js';
import { composeRequestTools, MAX_DEFERRED_DESCRIPTION_LENGTH } from './compose-request-tools.js';
import { createDeferredToolCatalog } from './deferred-tool-catalog.js';
import { SessionActivation } from './session-activation.js';

const table = [
  tool('read_file', { inputSchema: z.object({ path: z.string(), limit: z.number().default(10) }) }),
  deferredTool('mcp_zeta'),
  tool('write_file'),
  deferredTool('mcp_alpha'),
  deferredTool('mcp_often'),
];

describe('composeRequestTools', () => {
  it('sends tools that are not deferred, in table order, then the active deferred ones by name', () => {
    const activation = new SessionActivation(['mcp_zeta', 'mcp_alpha', 'not_in_table']);
    const { tools, evidence } = composeRequestTools(table, activation);
    expect(tools.map((schema) => schema.name)).toEqual(['read_file', 'write_file', 'mcp_alpha', 'mcp_zeta']);
    expect(evidence.toolNames).toEqual(['read_file', 'write_file', 'mcp_alpha', 'mcp_zeta']);
    expect(evidence.composition).toEqual({
      activatedTools: ['mcp_alpha', 'mcp_zeta'],
      alwaysLoadedTools: [],
      heldBackCount: 1,
    });
    expect(tools[0]!.inputSchema).toEqual(toModelToolSchema(table[0]!).inputSchema);
  });

  it('sends a deferred tool’s own inputJsonSchema as given', () => {
    const own = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
    const mcpTool = { ...deferredTool('mcp__s__echo'), inputJsonSchema: own };
    const { tools } = composeRequestTools([mcpTool], new SessionActivation(['mcp__s__echo']));
    expect(tools[0]!.inputSchema).toEqual(own);
  });

  it('follows the catalog for always-loaded tools', () => {
    const catalog = createDeferredToolCatalog(table, { alwaysLoaded: ['mcp_often'] });
    const { evidence } = composeRequestTools(table, new SessionActivation(), catalog);
    expect(evidence.toolNames).toEqual(['read_file', 'write_file', 'mcp_often']);
    expect(evidence.composition).toEqual({ activatedTools: [], alwaysLoadedTools: ['mcp_often'], heldBackCount: 2 });
  });

  it('hashes exactly the schemas sent: stable across runs and key order, different when a schema changes', () => {
    const activation = new SessionActivation(['mcp_alpha']);
    const first = composeRequestTools(table, activation).evidence.toolSchemaSha256;
    expect(composeRequestTools(table, activation).evidence.toolSchemaSha256).toBe(first);
    expect(first).toMatch(/^[0-9a-f]{64}$/);

    const reordered = table.map((definition) =>
      definition.name === 'read_file'
        ? defineTool({ ...definition, inputSchema: z.object({ limit: z.number().default(10), path: z.string() }) })
        : definition,
    );
    expect(composeRequestTools(reordered, activation).evidence.toolSchemaSha256).toBe(first);

    const changed = table.map((definition) =>
      definition.name === 'read_file'
        ? defineTool({ ...definition, inputSchema: z.object({ path: z.string(), limit: z.number() }) })
        : definition,
    );
    expect(composeRequestTools(changed, activation).evidence.toolSchemaSha256).not.toBe(first);
    const described = table.map((definition) =>
      definition.name === 'mcp_alpha' ? defineTool({ ...definition, description: 'Other.' }) : definition,
    );
    expect(composeRequestTools(described, activation).evidence.toolSchemaSha256).not.toBe(first);
    expect(
      composeRequestTools(table, new SessionActivation(['mcp_alpha', 'mcp_zeta'])).evidence.toolSchemaSha256,
    ).not.toBe(first);
  });

  it('is pinned: the hash is canonical SHA-256 of the exposed name, description and input schema', () => {
    const { evidence } = composeRequestTools(
      [tool('only', { description: 'One.', inputSchema: z.object({}) })],
      new SessionActivation(),
    );
    const canonical = '[{"description":"One.","inputSchema":{"properties":{},"type":"object"},"name":"only"}]';
    expect(evidence.toolSchemaSha256).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(evidence.toolSchemaSha256).toBe('b20a8115b597d0a9e228b044fb98b094a17de6d3323fcbe8ba5709dbf96c0e32');
  });

  it('bounds and cleans the description of a deferred tool but not of a built-in', () => {
    const hostile = `start\u001b[2J\u0000${'x'.repeat(10_000_000)}`;
    const { tools } = composeRequestTools(
      [deferredTool('mcp_big', { description: hostile }), tool('long_builtin', { description: 'y'.repeat(9_000) })],
      new SessionActivation(['mcp_big']),
    );
    const big = tools.find((schema) => schema.name === 'mcp_big')!;
    expect(big.description.length).toBeLessThanOrEqual(MAX_DEFERRED_DESCRIPTION_LENGTH);
    expect(big.description.startsWith('startx')).toBe(true);
    expect(big.description).toMatch(/cut: \d+ characters in all\]$/);
    expect(tools.find((schema) => schema.name === 'long_builtin')!.description).toHaveLength(9_000);
  });

  it('refuses a table with two tools of one name', () => {
    expect(() => composeRequestTools([tool('twin'), deferredTool('twin')], new SessionActivation())).toThrow(
      expect.objectContaining({ code: 'invalid_tool_catalog' }),
    );
  });
});
