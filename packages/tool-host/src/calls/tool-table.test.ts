import { defineTool } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildToolTable, DuplicateToolError } from './tool-table.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: name,
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    inputSchema: z.object({}),
    summarize: () => name,
    execute: async () => name,
  });

describe('buildToolTable', () => {
  it('refuses a duplicate name at startup, naming both sources', () => {
    expect(() =>
      buildToolTable([
        { source: 'builtin', tools: [tool('read_file')] },
        { source: 'extension:mcp-files', tools: [tool('read_file')] },
      ]),
    ).toThrowError(DuplicateToolError);
    expect(() =>
      buildToolTable([
        { source: 'builtin', tools: [tool('read_file')] },
        { source: 'extension:mcp-files', tools: [tool('read_file')] },
      ]),
    ).toThrow(/one from builtin and one from extension:mcp-files/);
  });

  it('is frozen: nothing can be added after construction', () => {
    const table = buildToolTable([{ source: 'builtin', tools: [tool('a'), tool('b')] }]);
    expect(table.names).toEqual(['a', 'b']);
    expect(Object.isFrozen(table)).toBe(true);
    expect(() => (table.names as string[]).push('c')).toThrow();
    expect(table.get('a')?.security.risk).toBe('read');
    expect(table.get('c')).toBeUndefined();
  });
});
