import { createDirectWorkspaceWall, type ToolExecutionContext, type WorkspaceWall } from '@clawsmith/tool-protocol';
import { FolderListings } from './folder-listings.js';
import { createProtectedPathMatcher, type ProtectedPathMatcher } from './protected-paths.js';
import { SearchIndexes, type SearchIndexOptions } from '@clawsmith/search-index';
import { resolveLimits, type WorkspaceLimits } from './workspace-limits.js';

/** Folders that search and glob skip unless configured otherwise. */
export const DEFAULT_SKIPPED_FOLDERS: readonly string[] = Object.freeze(['node_modules', '.git', 'dist', 'coverage']);

/** Options of `createWorkspaceTools`. */
export interface WorkspaceToolsOptions {
  /** The workspace folder; when omitted, each call uses `context.workspaceRoot`. */
  readonly workspaceRoot?: string;
  /** Overrides of the contract's default limits. */
  readonly limits?: Partial<WorkspaceLimits>;
  /** Folder names that search and glob skip, added to node_modules, .git, dist and coverage. */
  readonly skippedFolders?: readonly string[];
  /** Globs that write tools refuse, added to the default protected paths. */
  readonly protectedPaths?: readonly string[];
  /**
   * Where `search_files` keeps its trigram index, so that it reads only files that can match;
   * omitted or `false`: no index, every search walks the workspace within its budgets.
   */
  readonly searchIndex?: SearchIndexOptions | false;
  /**
   * Where every mutation is applied: give the kernel-enforced wall (`createWorkspaceWall` of
   * `@clawsmith/command-sandbox`). Default: applied in this process, guarded only by the path checks.
   */
  readonly wall?: WorkspaceWall;
}

/** The options every tool works with, resolved once. */
export interface ResolvedToolOptions {
  readonly limits: WorkspaceLimits;
  readonly skippedFolders: ReadonlySet<string>;
  readonly protectedPaths: ProtectedPathMatcher;
  /** Folder listings shared by search and glob, kept while their folders are unchanged. */
  readonly listings: FolderListings;
  /** The search indexes, when configured. */
  readonly searchIndexes: SearchIndexes | undefined;
  readonly wall: WorkspaceWall;
  rootFor(context: ToolExecutionContext): string;
}

/** Resolves {@link WorkspaceToolsOptions} once, at tool construction. */
export function resolveToolOptions(options: WorkspaceToolsOptions = {}): ResolvedToolOptions {
  const configuredRoot = options.workspaceRoot;
  const limits = resolveLimits(options.limits);
  const skippedFolders = new Set([...DEFAULT_SKIPPED_FOLDERS, ...(options.skippedFolders ?? [])]);
  return {
    limits,
    skippedFolders,
    searchIndexes: options.searchIndex
      ? new SearchIndexes(options.searchIndex, skippedFolders, limits.searchFileBytes)
      : undefined,
    protectedPaths: createProtectedPathMatcher(options.protectedPaths ?? []),
    listings: new FolderListings(),
    wall: options.wall ?? createDirectWorkspaceWall(),
    rootFor: (context) => configuredRoot ?? context.workspaceRoot,
  };
}
