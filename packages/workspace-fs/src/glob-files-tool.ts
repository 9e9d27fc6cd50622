import { lstatSync } from 'node:fs';
import micromatch from 'micromatch';
import { defineTool, toolSuccess, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { assertRelativePattern } from './glob-pattern.js';
import { resolveWorkspacePath, toWorkspaceRelative } from './path-boundary.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { PathExclusion } from './excluded-paths.js';
import { newWalkCounts, walkWorkspace, type WalkedFile } from './workspace-walk.js';

const globInput = z.strictObject({
  pattern: z
    .string()
    .describe(
      'Glob relative to the workspace: * within a name, ** across folders, ? one character. E.g. "src/**/*.ts".',
    ),
  maxResults: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Paths to return at most (default and maximum: the glob result limit).'),
});

type GlobInput = z.output<typeof globInput>;

/** Builds `glob_files`: workspace paths matching a glob, in a stable order, with caps reported. */
export function createGlobFilesTool(options: ResolvedToolOptions) {
  const { limits } = options;
  return defineTool({
    name: 'glob_files',
    pathArguments: [{ name: 'pattern', role: 'glob' }],
    description:
      'List workspace files whose relative path matches a glob (*, **, ?), sorted by path. Patterns must be relative to the workspace; ' +
      `"..", absolute paths and escapes are refused. Skips ${[...options.skippedFolders].join(', ')} and never follows symlinks. ` +
      `Returns at most ${limits.globResults} paths and visits at most ${limits.globEntries} entries, and says when a cap was hit.`,
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    inputSchema: globInput,
    summarize: (input) => `glob ${input.pattern}`,
    execute: async (input, context) => globFiles(options, input, context),
  });
}

const EVERYTHING = new Set(['**', '**/*']);
const ANY_DEPTH_SUFFIX = /^\*\*\/\*((?:\.[\w-]+)+)$/;

/**
 * The common shapes `**`, `**\/*` and `**\/*.ext` (below the literal prefix the walk starts at)
 * decided without a regular expression: on a whole-workspace glob that is a third of the time.
 */
function fastMatcher(glob: string): ((path: string) => boolean) | undefined {
  if (EVERYTHING.has(glob)) return () => true;
  const suffix = ANY_DEPTH_SUFFIX.exec(glob)?.[1];
  if (suffix !== undefined) return (path) => path.endsWith(suffix);
  return undefined;
}

function globFiles(options: ResolvedToolOptions, input: GlobInput, context: ToolExecutionContext) {
  const { limits } = options;
  const pattern = assertRelativePattern(input.pattern, 'pattern');
  const cap = Math.min(input.maxResults ?? limits.globResults, limits.globResults);
  // Walk only below the pattern's literal prefix: "src/**/*.ts" never lists docs/.
  const { base, glob } = micromatch.scan(pattern);
  const fullMatcher = micromatch.matcher(pattern, { dot: true });
  const start = resolveWorkspacePath(options.rootFor(context), base === '' ? '.' : base);
  const exclusion = new PathExclusion(context.excludedPaths);
  const counts = newWalkCounts();
  const results: string[] = [];
  let stoppedBy: 'results' | 'entries' | undefined;

  if (start.exists) {
    const isFolder = lstatSync(start.real).isDirectory();
    const matches = (isFolder ? fastMatcher(glob) : undefined) ?? fullMatcher;
    const candidates: Iterable<WalkedFile> = isFolder
      ? walkWorkspace(
          { absolute: start.real, relative: toWorkspaceRelative(start.root, start.lexical) },
          {
            skippedFolders: options.skippedFolders,
            listings: options.listings,
            enterFolder: (relative) => !exclusion.excludes(relative),
          },
          counts,
        )
      : lstatSync(start.real).isFile()
        ? [{ absolute: start.real, relative: toWorkspaceRelative(start.root, start.lexical), name: start.relative }]
        : [];
    let checked = 0;
    for (const file of candidates) {
      if ((checked += 1) % 1_024 === 0) context.signal.throwIfAborted();
      if (counts.entries > limits.globEntries) {
        stoppedBy = 'entries';
        break;
      }
      if (!matches(file.relative)) continue;
      if (exclusion.excludes(file.relative)) continue;
      if (results.length >= cap) {
        stoppedBy = 'results';
        break;
      }
      results.push(file.relative);
    }
  }

  // The paths are joined once, for both the content and the display body.
  const body = results.join('\n');
  const lines: string[] =
    results.length === 0
      ? [`No files match ${pattern}.`]
      : [`${results.length} ${results.length === 1 ? 'file matches' : 'files match'} ${pattern}:`, body];
  const notes: string[] = [];
  if (stoppedBy === 'results')
    notes.push(
      `Stopped at the ${cap}-path limit; more files match. Narrow the pattern (a deeper folder or a file extension).`,
    );
  if (stoppedBy === 'entries') {
    notes.push(
      `Stopped early: visited the ${limits.globEntries.toLocaleString('en-US')}-entry limit; files not yet visited may match. Narrow the pattern to a sub-folder.`,
    );
  }
  const passed: string[] = [];
  if (counts.skippedFolders > 0)
    passed.push(
      `${counts.skippedFolders} skipped folder${counts.skippedFolders === 1 ? '' : 's'} (${[...options.skippedFolders].join(', ')})`,
    );
  if (counts.passedOver > 0)
    passed.push(
      `${counts.passedOver} symlink${counts.passedOver === 1 ? '' : 's'} or special file${counts.passedOver === 1 ? '' : 's'}`,
    );
  if (passed.length > 0) notes.push(`Left out: ${passed.join('; ')}.`);
  const excludedNote = exclusion.note();
  if (excludedNote) notes.push(excludedNote);
  if (notes.length > 0) lines.push('', ...notes);
  return toolSuccess(lines.join('\n'), {
    display: {
      kind: 'search',
      title: `Glob ${pattern}: ${results.length} file${results.length === 1 ? '' : 's'}${stoppedBy ? ` (stopped: ${stoppedBy})` : ''}`,
      body,
      fields: [
        { label: 'entries visited', value: String(counts.entries) },
        { label: 'stopped by', value: stoppedBy ?? 'nothing (complete)' },
      ],
    },
  });
}
