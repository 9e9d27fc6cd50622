import { toolError, toolSuccess } from '@clawsmith/tool-protocol';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { plainResult, servedCallResult } from './served-call-result.js';

describe(servedCallResult, () => {
  it('a success that changed files names its restore point', () => {
    expect(
      servedCallResult({
        result: toolSuccess('Edited a.txt'),
        restorePointId: 's/t',
        changedFiles: [{ path: 'a.txt', change: 'modified', linesAdded: 1, linesRemoved: 1 }],
      }),
    ).toEqual({
      content: [{ type: 'text', text: 'Edited a.txt' }],
      structuredContent: {
        status: 'success',
        retryable: false,
        restorePoint: 's/t',
        changedFiles: ['a.txt'],
      },
      isError: false,
    });
  });

  it('an error keeps its code and retryable flag and is isError', () => {
    const result = servedCallResult({
      result: toolError('inactive_tool', 'Call search_tools first.', { retryable: true }),
      restorePointId: 's/t',
      changedFiles: [],
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ status: 'error', code: 'inactive_tool', retryable: true });
  });

  it('externalised output becomes a resource link to its artifact', () => {
    const result = servedCallResult({
      result: toolSuccess('head…tail', {
        artifact: { id: 'art_1', mediaType: 'text/plain; charset=utf-8', byteLength: 1_000_000, lineCount: 1 },
      }),
      restorePointId: 's/t',
      changedFiles: [],
    });
    expect(result.content[1]).toMatchObject({
      type: 'resource_link',
      uri: 'clawsmith://artifacts/art_1',
      mimeType: 'text/plain; charset=utf-8',
    });
    expect(result.structuredContent.artifact).toMatchObject({ id: 'art_1', uri: 'clawsmith://artifacts/art_1' });
  });
});

// The server registers tools/call past the SDK Server's result check (a second zod parse per
// call): every shape built here must be a valid CallToolResult, unchanged by the SDK's parse.
describe('served results are valid MCP CallToolResults', () => {
  const shapes = {
    success: servedCallResult({
      result: toolSuccess('Edited a.txt', { exitCode: 0 }),
      restorePointId: 's/t',
      changedFiles: [{ path: 'a.txt', change: 'modified', linesAdded: 1, linesRemoved: 1 }],
    }),
    error: servedCallResult({
      result: toolError('path_outside_workspace', 'No.', { retryable: false }),
      restorePointId: 's/t',
      changedFiles: [],
    }),
    artifact: servedCallResult({
      result: toolSuccess('head…tail', {
        artifact: { id: 'art_1', mediaType: 'text/plain; charset=utf-8', byteLength: 1_000_000, lineCount: 1 },
      }),
      restorePointId: 's/t',
      changedFiles: [],
    }),
    plain: plainResult('denied', 'Denied.', { code: 'permission_denied', structured: { restorePoint: 'x' } }),
  };
  for (const [shape, result] of Object.entries(shapes))
    it(`${shape}`, () => {
      const parsed = CallToolResultSchema.safeParse(result);
      expect(parsed.success, parsed.error?.message).toBe(true);
      expect(parsed.data).toEqual(result);
    });
});
