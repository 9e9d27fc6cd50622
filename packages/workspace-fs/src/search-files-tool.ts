import { lstatSync } from 'node:fs';
import micromatch from 'micromatch';
import { defineTool, toolSuccess, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { assertRelativePattern } from './glob-pattern.js';
import { escapeRegExp, matchLiteralBytes, matchLiteralText, type LineMatch } from './literal-match.js';
import { resolveWorkspacePath } from './path-boundary.js';
import { RegexSearch } from './regex-search.js';
import { RegexTimeout, RegexWorkerPool } from './regex-worker.js';
import { indexedCandidates, type IndexUse } from './search-index/indexed-search.js';
import { compareWalkOrder } from '@clawsmith/search-index';
import { looksBinary } from './regular-file.js';
import { closeSearchFile, openSearchFile, readSearchFile } from './search-read.js';
import { coverageLines, searchReport, type SearchCoverage, type SearchResult } from './search-report.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { PathExclusion } from './excluded-paths.js';
import { newWalkCounts, walkWorkspace, type WalkedFile } from './workspace-walk.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

const searchInput = z.strictObject({
  query: z.string().min(1).max(1_000).describe('Text to find in file names and contents.'),
  regex: z
    .boolean()
    .optional()
    .describe('Treat query as a JavaScript regular expression, matched line by line (default: literal text).'),
  ignoreCase: z.boolean().optional().describe('Ignore letter case (default false).'),
  path: z
    .string()
    .optional()
    .describe('Sub-folder or file to search, relative to the workspace (default: the whole workspace).'),
  include: z
    .string()
    .optional()
    .describe('Glob that file paths must match, e.g. "**/*.ts"; without "/" it matches the file name.'),
  maxResults: z.number().int().min(1).optional().describe('Results to return (default 50, at most 100).'),
});

type SearchInput = z.output<typeof searchInput>;

interface Matcher {
  name(name: string): boolean;
  /** Content matches of a text file, or undefined when matching happens elsewhere. */
  content(bytes: Buffer, limit: number): LineMatch[];
}

function literalMatcher(input: SearchInput): Matcher {
  if (input.ignoreCase === true) {
    const pattern = new RegExp(escapeRegExp(input.query), 'giu');
    const lowered = input.query.toLowerCase();
    return {
      name: (name) => name.toLowerCase().includes(lowered),
      content: (bytes, limit) => matchLiteralText(bytes.toString('utf8'), pattern, limit),
    };
  }
  const needle = Buffer.from(input.query, 'utf8');
  return {
    name: (name) => name.includes(input.query),
    content: (bytes, limit) => matchLiteralBytes(bytes, needle, limit),
  };
}

function compileRegex(input: SearchInput): string {
  const flags = input.ignoreCase === true ? 'i' : '';
  try {
    new RegExp(input.query, flags);
  } catch (error) {
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.invalidPattern,
      `The regular expression does not compile: ${(error as Error).message}. Fix it, or search literally.`,
      {
        cause: error,
      },
    );
  }
  return flags;
}

/** Builds `search_files`: bounded literal or regular-expression search of names and contents. */
export function createSearchFilesTool(options: ResolvedToolOptions) {
  const { limits } = options;
  const bufferBytes = Math.min(limits.searchFileBytes, limits.searchBytes);
  const workers = new RegexWorkerPool(bufferBytes);
  // One read buffer per tool for literal searches: every file is read and matched synchronously
  // before the next await, so concurrent searches never see each other's bytes, and a fresh
  // 1 MiB buffer per call would cost page faults on every search.
  const buffer = Buffer.allocUnsafe(bufferBytes);
  return defineTool({
    name: 'search_files',
    pathArguments: [{ name: 'path', role: 'scope' }],
    description:
      'Search file names and text contents in the workspace, literally or by regular expression, optionally under a sub-folder ' +
      `(path) or for files matching a glob (include). Returns up to ${limits.searchResults} results (at most ${limits.searchResultsMax}); ` +
      `reads at most ${limits.searchFiles} files and a fixed byte budget, and says which limit stopped it. Skips ${[...options.skippedFolders].join(', ')}.`,
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    inputSchema: searchInput,
    summarize: (input) =>
      `search ${input.regex ? 'regex' : 'text'} ${JSON.stringify(input.query)}${input.path ? ` in ${input.path}` : ''}`,
    execute: (input, context) => searchFiles(options, { workers, buffer }, input, context),
  });
}

async function searchFiles(
  options: ResolvedToolOptions,
  { workers, buffer }: { workers: RegexWorkerPool; buffer: Buffer },
  input: SearchInput,
  context: ToolExecutionContext,
) {
  const { limits } = options;
  const maxResults = Math.min(input.maxResults ?? limits.searchResults, limits.searchResultsMax);
  const include = input.include === undefined ? undefined : assertRelativePattern(input.include, 'include glob');
  const includes =
    include === undefined ? undefined : micromatch.matcher(include, { dot: true, basename: !include.includes('/') });
  const flags = input.regex === true ? compileRegex(input) : '';
  const start = resolveWorkspacePath(options.rootFor(context), input.path ?? '.');
  if (!start.exists)
    throw new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.fileNotFound,
      `Nothing to search at ${start.requested}: it does not exist.`,
      { path: start.requested },
    );

  const exclusion = new PathExclusion(context.excludedPaths);
  const counts = newWalkCounts();
  const files: Iterable<WalkedFile> = walkWorkspace(
    { absolute: start.real, relative: start.relative },
    {
      skippedFolders: options.skippedFolders,
      listings: options.listings,
      enterFolder: (relative) => !exclusion.excludes(relative),
    },
    counts,
  );
  const singleFile = start.relative !== '' && !lstatSync(start.real).isDirectory();
  const index: IndexUse | undefined =
    options.searchIndexes && !singleFile
      ? await indexedCandidates(
          options.searchIndexes,
          start.root,
          start.relative,
          { text: input.query, regex: input.regex === true, ignoreCase: input.ignoreCase === true },
          includes,
        )
      : undefined;
  const candidates: Iterable<WalkedFile> = singleFile
    ? [{ absolute: start.real, relative: start.relative, name: start.relative.split('/').pop()! }]
    : index?.used
      ? index.files
      : files;

  const coverage: SearchCoverage = {
    filesSearched: 0,
    bytesRead: 0,
    filesSeen: 0,
    filesCutAtFileLimit: 0,
    binaryFiles: 0,
    passedOver: 0,
    unreadable: 0,
    skippedFolders: 0,
    stopReason: undefined,
    index: index?.used
      ? { candidates: index.files.length, known: index.known, direct: index.direct }
      : index && { notUsed: index.reason },
  };
  const results: SearchResult[] = [];
  const matcher = literalMatcher(input);
  const regex =
    input.regex === true
      ? new RegexSearch(workers, buffer.length, input.query, flags, limits, maxResults, results, coverage)
      : undefined;

  try {
    for (const file of candidates) {
      context.signal.throwIfAborted();
      if (includes && !includes(file.relative)) continue;
      if (exclusion.excludes(file.relative)) continue;
      if ((regex?.filesRead ?? coverage.filesSearched) >= limits.searchFiles) {
        coverage.stopReason = 'files';
        break;
      }
      if ((regex?.bytesRead ?? coverage.bytesRead) >= limits.searchBytes) {
        coverage.stopReason = 'bytes';
        break;
      }
      if (regex) {
        regex.add(file);
        if (regex.backlogged) await regex.receive();
        if (coverage.stopReason === 'results') break;
        continue;
      }
      const bytes = readBounded(
        file.absolute,
        buffer,
        Math.min(limits.searchFileBytes, limits.searchBytes - coverage.bytesRead),
        limits.searchFileBytes,
        coverage,
      );
      const binary = bytes !== undefined && looksBinary(bytes);
      if (binary) coverage.binaryFiles += 1;
      if (matcher.name(file.name)) results.push({ path: file.relative, line: 0, preview: file.name });
      if (bytes !== undefined && !binary && results.length < maxResults) {
        for (const match of matcher.content(bytes, maxResults - results.length))
          results.push({ path: file.relative, ...match });
      }
      if (results.length >= maxResults) {
        coverage.stopReason = 'results';
        break;
      }
    }
    // Batches already read are matched whatever stopped the walk, so files counted as searched were.
    await regex?.finish();
  } catch (error) {
    if (!(error instanceof RegexTimeout)) throw error;
    coverage.stopReason = 'time';
  } finally {
    regex?.close();
  }
  coverage.filesSeen = singleFile ? 1 : index?.used ? index.known : counts.files;
  // The index hands candidates smallest first; results read in walk order all the same.
  if (index?.used) results.sort((left, right) => compareWalkOrder(left.path, right.path) || left.line - right.line);
  coverage.passedOver += counts.passedOver;
  coverage.skippedFolders = counts.skippedFolders;

  const description =
    `${input.regex ? 'the regular expression' : ''} ${JSON.stringify(input.query)}${start.relative ? ` under ${start.relative}` : ''}${include ? ` in files matching ${include}` : ''}`.trim();
  const report = searchReport(description, results.slice(0, maxResults), coverage, limits, maxResults);
  const excludedNote = exclusion.note();
  const content = excludedNote ? `${report}\n${excludedNote}` : report;
  return toolSuccess(content, {
    display: {
      kind: 'search',
      title: `Search ${JSON.stringify(input.query)}: ${results.length} result${results.length === 1 ? '' : 's'}${coverage.stopReason ? ` (stopped: ${coverage.stopReason})` : ''}`,
      body: results
        .map((result) => (result.line === 0 ? result.path : `${result.path}:${result.line}: ${result.preview}`))
        .join('\n'),
      fields: [
        { label: 'files searched', value: `${coverage.filesSearched} of ${coverage.filesSeen} seen` },
        { label: 'bytes read', value: String(coverage.bytesRead) },
        { label: 'stopped by', value: coverage.stopReason ?? 'nothing (complete)' },
        { label: 'coverage', value: coverageLines(coverage, limits, maxResults).join(' ') },
      ],
    },
  });
}

/**
 * Reads at most `limit` bytes of a regular file into `buffer`, never following a symlink and
 * never blocking on a FIFO; undefined when it is not a regular file or cannot be opened.
 */
function readBounded(
  path: string,
  buffer: Buffer,
  limit: number,
  fileLimit: number,
  coverage: SearchCoverage,
): Buffer | undefined {
  const file = openSearchFile(path, coverage);
  if (file === undefined) return undefined;
  try {
    const filled = readSearchFile(file, buffer, 0, Math.min(file.size, limit));
    coverage.filesSearched += 1;
    coverage.bytesRead += filled;
    if (file.size > filled && filled === fileLimit) coverage.filesCutAtFileLimit += 1;
    return buffer.subarray(0, filled);
  } catch {
    coverage.unreadable += 1;
    return undefined;
  } finally {
    closeSearchFile(file);
  }
}
