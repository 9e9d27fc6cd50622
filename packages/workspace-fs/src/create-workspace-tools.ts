import type { ToolDefinition, ToolExecutionResult } from '@clawsmith/tool-protocol';
import { createApplyPatchTool as buildApplyPatchTool } from './apply-patch-tool.js';
import { createDeleteFileTool } from './delete-file-tool.js';
import { createEditFileTool } from './edit-file-tool.js';
import { createGlobFilesTool } from './glob-files-tool.js';
import { createReadFileTool } from './read-file-tool.js';
import { createRenameFileTool } from './rename-file-tool.js';
import { createSearchFilesTool } from './search-files-tool.js';
import { updatingIndex } from './search-index/index-notice.js';
import { resolveToolOptions, type ResolvedToolOptions, type WorkspaceToolsOptions } from './tool-options.js';
import { createWriteFileTool } from './write-file-tool.js';

/**
 * One workspace file tool as a direct caller sees it: `execute` resolves to a
 * `ToolExecutionResult` for every outcome it reports and throws a `ClawsmithError` for a refusal.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WorkspaceTool = ToolDefinition<any, ToolExecutionResult>;

/** The seven tools, in the order {@link createWorkspaceTools} returns them. */
export type WorkspaceTools = [
  readFile: WorkspaceTool,
  searchFiles: WorkspaceTool,
  globFiles: WorkspaceTool,
  editFile: WorkspaceTool,
  writeFile: WorkspaceTool,
  renameFile: WorkspaceTool,
  deleteFile: WorkspaceTool,
];

/**
 * The seven workspace file tools, in this order: `read_file`, `search_files`, `glob_files`,
 * `edit_file`, `write_file`, `rename_file`, `delete_file`. Every path goes through the
 * workspace boundary; write tools also refuse protected paths, call `assertAuthorized` first
 * and report each change through `context.fileChanges`. Throws a `TypeError` on invalid limits.
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions = {}): WorkspaceTools {
  return toolsFor(resolveToolOptions(options));
}

/** The seven tools over options already resolved (tests reach the search indexes this way). */
export function toolsFor(resolved: ResolvedToolOptions): WorkspaceTools {
  const { searchIndexes } = resolved;
  const writing = (tool: WorkspaceTool) =>
    searchIndexes ? updatingIndex(tool, searchIndexes, resolved.rootFor) : tool;
  return [
    createReadFileTool(resolved),
    createSearchFilesTool(resolved),
    createGlobFilesTool(resolved),
    writing(createEditFileTool(resolved)),
    writing(createWriteFileTool(resolved)),
    writing(createRenameFileTool(resolved)),
    writing(createDeleteFileTool(resolved)),
  ];
}

/**
 * `apply_patch`, apart from the seven (a host adds it where patches arrive, as core does with
 * delegation on): applies a unified diff all or nothing, recording every file for undo. Give it
 * the same `wall` and `protectedPaths` as the seven; `searchIndex` is ignored (the index's
 * watchers see the change like any other).
 */
export function createApplyPatchTool(options: WorkspaceToolsOptions = {}): WorkspaceTool {
  const { searchIndex: _ignored, ...rest } = options;
  return buildApplyPatchTool(resolveToolOptions(rest));
}
