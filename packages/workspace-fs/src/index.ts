// Everything exported here is the public API of @clawsmith/workspace-fs; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { WorkspaceTool, WorkspaceTools } from './create-workspace-tools.js';
export { createApplyPatchTool, createWorkspaceTools } from './create-workspace-tools.js';
export type { FilePatch, Hunk, HunkLine } from './unified-diff.js';
export { parseUnifiedDiff, patchedPaths } from './unified-diff.js';
export type { WorkspaceToolsOptions } from './tool-options.js';
export { DEFAULT_SKIPPED_FOLDERS } from './tool-options.js';
export type { SearchIndexOptions } from '@clawsmith/search-index';

export type { WorkspaceLimits } from './workspace-limits.js';
export { DEFAULT_WORKSPACE_LIMITS } from './workspace-limits.js';

export type { ResolveWorkspacePathOptions, WorkspacePath } from './path-boundary.js';
export { isInsideFolder, resolveWorkspacePath, resolveWorkspaceRoot } from './path-boundary.js';

export type { ProtectedPathMatcher } from './protected-paths.js';
export { PROTECTED_PATH_GLOBS, createProtectedPathMatcher, isProtectedPath } from './protected-paths.js';

export type { WorkspaceFsErrorCode, WorkspaceFsErrorOptions } from './workspace-fs-error.js';
export {
  ProtectedPathError,
  WORKSPACE_FS_ERROR_CODES,
  WorkspaceBoundaryError,
  WorkspaceFsError,
} from './workspace-fs-error.js';
