import { describe, expect, it } from 'vitest';
import { toModelToolSchema } from '@clawsmith/tool-protocol';
import * as api from './index.js';

describe('@clawsmith/workspace-fs public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_SKIPPED_FOLDERS',
      'DEFAULT_WORKSPACE_LIMITS',
      'PROTECTED_PATH_GLOBS',
      'ProtectedPathError',
      'WORKSPACE_FS_ERROR_CODES',
      'WorkspaceBoundaryError',
      'WorkspaceFsError',
      'createApplyPatchTool',
      'createProtectedPathMatcher',
      'createWorkspaceTools',
      'isInsideFolder',
      'isProtectedPath',
      'parseUnifiedDiff',
      'patchedPaths',
      'resolveWorkspacePath',
      'resolveWorkspaceRoot',
    ]);
  });

  it('pins the error codes', () => {
    expect(Object.values(api.WORKSPACE_FS_ERROR_CODES).sort()).toEqual([
      'binary_file',
      'change_not_recorded',
      'file_changed',
      'file_exists',
      'file_not_found',
      'file_too_large',
      'invalid_path',
      'invalid_pattern',
      'invalid_range',
      'not_a_file',
      'old_text_not_found',
      'old_text_not_unique',
      'patch_conflict',
      'patch_invalid',
      'patch_unsupported',
      'path_outside_workspace',
      'protected_path',
      'workspace_unavailable',
    ]);
  });

  it('pins the contract limits', () => {
    expect(api.DEFAULT_WORKSPACE_LIMITS).toEqual({
      readBytes: 100_000,
      lineScanBytes: 67_108_864,
      searchResults: 50,
      searchResultsMax: 100,
      searchBytes: 2_097_152,
      searchFiles: 2_000,
      searchFileBytes: 1_048_576,
      searchRegexTimeMs: 5_000,
      globResults: 1_000,
      globEntries: 100_000,
      writeBytes: 1_048_576,
      recordBytes: 10_485_760,
    });
    expect(api.DEFAULT_SKIPPED_FOLDERS).toEqual(['node_modules', '.git', 'dist', 'coverage']);
  });
});

describe('createWorkspaceTools', () => {
  it('returns the seven tools in order with truthful risk, capabilities and concurrency', () => {
    const tools = api.createWorkspaceTools();
    expect(tools.map((tool) => [tool.name, tool.risk, tool.capabilities.join(','), tool.concurrencySafe])).toEqual([
      ['read_file', 'read', 'filesystem.read', true],
      ['search_files', 'read', 'filesystem.read', true],
      ['glob_files', 'read', 'filesystem.read', true],
      ['edit_file', 'workspace-write', 'filesystem.write', false],
      ['write_file', 'workspace-write', 'filesystem.write', false],
      ['rename_file', 'workspace-write', 'filesystem.write', false],
      ['delete_file', 'workspace-write', 'filesystem.write', false],
    ]);
    expect(tools[0]!.summarize({ path: 'src/a.ts' })).toBe('read src/a.ts');
  });

  it('gives every tool a model-facing JSON Schema whose required fields are the real ones', () => {
    const required = Object.fromEntries(
      api
        .createWorkspaceTools()
        .map((tool) => [tool.name, (toModelToolSchema(tool).inputSchema as { required?: string[] }).required]),
    );
    expect(required).toEqual({
      read_file: ['path'],
      search_files: ['query'],
      glob_files: ['pattern'],
      edit_file: ['path', 'oldText', 'newText'],
      write_file: ['path', 'content'],
      rename_file: ['from', 'to'],
      delete_file: ['path'],
    });
  });

  it('rejects limits that are not positive integers', () => {
    expect(() => api.createWorkspaceTools({ limits: { readBytes: 0 } })).toThrow(
      /readBytes must be a positive integer/,
    );
    expect(() => api.createWorkspaceTools({ limits: { searchResults: 200 } })).toThrow(/searchResults must not exceed/);
  });
});
