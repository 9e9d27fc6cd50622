import { formatBytes, type WorkspaceLimits } from './workspace-limits.js';

/** Which limit ended a search early. */
export type SearchStopReason = 'results' | 'bytes' | 'files' | 'time';

/** One search result: a matching line, or a matching file name (`line` 0). */
export interface SearchResult {
  readonly path: string;
  readonly line: number;
  readonly preview: string;
}

/** What one search covered, for an honest report. */
export interface SearchCoverage {
  /** Files opened and searched. */
  filesSearched: number;
  /** Bytes read from them. */
  bytesRead: number;
  /** Regular files listed (searched or not). */
  filesSeen: number;
  /** Files read only up to the per-file limit. */
  filesCutAtFileLimit: number;
  /** Binary files whose content was not searched. */
  binaryFiles: number;
  /** Symlinks and special files passed over. */
  passedOver: number;
  /** Files that could not be opened. */
  unreadable: number;
  /** Folders left out as skipped (node_modules, .git, ...). */
  skippedFolders: number;
  /** The limit that ended the search early, if any. */
  stopReason: SearchStopReason | undefined;
  /** How the search index took part, when one is configured. */
  index?: SearchIndexCoverage | undefined;
}

/** The index's part in a search: the candidates it chose, or why it was not used. */
export type SearchIndexCoverage =
  | {
      /** Files the index chose (all read unless a limit stopped the search). */
      readonly candidates: number;
      /** Searchable files the index knows in the searched folder. */
      readonly known: number;
      /** Candidates searched directly because they changed since indexing. */
      readonly direct: number;
    }
  | { readonly notUsed: string };

// One formatter: `toLocaleString('en-US')` builds a new one on every call. Built on the first
// report, not on import: the first formatter loads ICU's locale data, tens of milliseconds that a
// process which never searches (every `clawsmith` start) need not pay.
let countFormat: Intl.NumberFormat | undefined;
const COUNT_FORMAT = { format: (count: number) => (countFormat ??= new Intl.NumberFormat('en-US')).format(count) };

function plural(count: number, word: string): string {
  return `${COUNT_FORMAT.format(count)} ${word}${count === 1 ? '' : 's'}`;
}

const NARROW = 'narrow the search with path (a sub-folder) or include (a glob such as "**/*.ts")';

function stopSentence(coverage: SearchCoverage, limits: WorkspaceLimits, maxResults: number): string {
  const index = coverage.index && 'candidates' in coverage.index ? coverage.index : undefined;
  const unsearched = Math.max(0, (index ? index.candidates : coverage.filesSeen) - coverage.filesSearched);
  const rest = index
    ? `${plural(unsearched, 'candidate file')} ${unsearched === 1 ? 'was' : 'were'} not searched`
    : `${plural(unsearched, 'file')} already listed ${unsearched === 1 ? 'was' : 'were'} not searched, and folders not yet listed were not visited`;
  switch (coverage.stopReason) {
    case 'results':
      return `Stopped at the ${maxResults}-result limit; more matches may exist. Ask for up to ${limits.searchResultsMax} with maxResults, or ${NARROW}.`;
    case 'bytes':
      return `Stopped early: the ${formatBytes(limits.searchBytes)} read budget ran out; ${rest}. Matches may exist there: ${NARROW}.`;
    case 'files':
      return `Stopped early: the ${COUNT_FORMAT.format(limits.searchFiles)}-file limit was reached; ${rest}. Matches may exist there: ${NARROW}.`;
    case 'time':
      return (
        `Stopped early: the regular expression ran past its ${limits.searchRegexTimeMs} ms time budget (nested quantifiers such as (a+)+ can ` +
        'backtrack without end). Results above may be incomplete; simplify the expression or search literally.'
      );
    default:
      return '';
  }
}

/** The coverage lines of a search report: what was searched, what was left out and why. */
export function coverageLines(coverage: SearchCoverage, limits: WorkspaceLimits, maxResults: number): string[] {
  const index = coverage.index;
  const lines =
    index && 'candidates' in index
      ? [
          `Used the search index: searched ${COUNT_FORMAT.format(coverage.filesSearched)} of ${plural(index.candidates, 'candidate file')} (${formatBytes(coverage.bytesRead)} read) of ${COUNT_FORMAT.format(index.known)} indexed; no other file can match${index.direct > 0 ? ` (${COUNT_FORMAT.format(index.direct)} changed since indexing and searched directly)` : ''}.`,
        ]
      : [
          `Searched ${plural(coverage.filesSearched, 'file')} (${formatBytes(coverage.bytesRead)} read) of ${plural(coverage.filesSeen, 'file')} seen.`,
        ];
  if (index && 'notUsed' in index) lines.push(`The search index was not used: ${index.notUsed}.`);
  const skipped: string[] = [];
  if (coverage.filesCutAtFileLimit > 0)
    skipped.push(
      `${plural(coverage.filesCutAtFileLimit, 'file')} searched only in the first ${formatBytes(limits.searchFileBytes)}`,
    );
  if (coverage.binaryFiles > 0) skipped.push(`${plural(coverage.binaryFiles, 'binary file')} matched by name only`);
  if (coverage.passedOver > 0)
    skipped.push(
      `${COUNT_FORMAT.format(coverage.passedOver)} ${coverage.passedOver === 1 ? 'symlink or special file' : 'symlinks or special files'} not followed`,
    );
  if (coverage.unreadable > 0) skipped.push(`${plural(coverage.unreadable, 'file')} could not be opened`);
  if (coverage.skippedFolders > 0)
    skipped.push(`${plural(coverage.skippedFolders, 'skipped folder')} (such as node_modules) left out`);
  if (skipped.length > 0) lines.push(`Also: ${skipped.join('; ')}.`);
  const stop = stopSentence(coverage, limits, maxResults);
  if (stop) lines.push(stop);
  return lines;
}

/** The model-facing text of a search: results, or an explicit "no results", then coverage. */
export function searchReport(
  description: string,
  results: readonly SearchResult[],
  coverage: SearchCoverage,
  limits: WorkspaceLimits,
  maxResults: number,
): string {
  const lines: string[] = [];
  if (results.length === 0) {
    lines.push(
      coverage.stopReason === undefined
        ? `No results for ${description}.`
        : `No results for ${description} in the part searched, but the search did not cover everything (see below).`,
    );
  } else {
    lines.push(`${plural(results.length, 'result')} for ${description}:`);
    for (const result of results)
      lines.push(
        result.line === 0 ? `${result.path}: (file name matches)` : `${result.path}:${result.line}: ${result.preview}`,
      );
  }
  lines.push('', ...coverageLines(coverage, limits, maxResults));
  return lines.join('\n');
}
