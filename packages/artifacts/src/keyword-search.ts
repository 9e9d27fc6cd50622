import { closeSync, openSync } from 'node:fs';
import { Script, createContext } from 'node:vm';
import type { ArtifactReadLimits } from './artifact-limits.js';
import { InvalidArtifactRangeError, InvalidSearchPatternError } from './artifact-errors.js';
import { readAt } from './content-files.js';
import { seekLine } from './range-reads.js';
import { SearchCollector, type SearchLine } from './search-collector.js';

const NEWLINE = 0x0a;
const SCAN_BLOCK = 1024 * 1024;

/** A keyword search: a literal (default) or a regular expression, tested line by line. */
export interface SearchOptions {
  readonly pattern: string;
  /** Treat `pattern` as a JavaScript regular expression. Default false (literal text). */
  readonly regex?: boolean;
  readonly ignoreCase?: boolean;
  /** Matches to return; default `limits.defaultMatches`, at most `limits.maxMatches`. */
  readonly maxMatches?: number;
  /** Lines of context before and after each match; default 0, at most `limits.maxContextLines`. */
  readonly contextLines?: number;
  /** First line to search (1-based); default 1. Continue a search with the `nextLine` it gave. */
  readonly fromLine?: number;
}

/** Why a search ended. */
export type SearchStop = 'end' | 'maxMatches' | 'scanLimit' | 'timeLimit' | 'outputLimit';

/** The outcome of a search, with where a continued search should start. */
export interface SearchResult {
  /** Matching lines and their context, in order. */
  readonly lines: readonly SearchLine[];
  readonly matchCount: number;
  readonly fromLine: number;
  /** The last line searched. */
  readonly lastLine: number;
  /** Where to continue (`fromLine`), when the search stopped before the end. */
  readonly nextLine?: number;
  readonly stoppedBy: SearchStop;
  readonly scannedBytes: number;
  /** Lines longer than `limits.searchLineBytes`, searched only in their beginning. */
  readonly longLines: number;
  readonly lineCount: number;
  readonly byteLength: number;
  /** True when `maxMatches` or `contextLines` asked for more than the caps and were cut. */
  readonly capped: boolean;
}

function occursIn(bytes: Buffer, literal: Buffer): boolean {
  return bytes.indexOf(literal) !== -1;
}

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) count += 1;
  return count;
}

/** The last `count` lines of `bytes`, which holds whole lines without the final newline. */
function lastLines(bytes: Buffer, count: number): string[] {
  if (count === 0) return [];
  let position = bytes.length;
  for (let found = 0; found < count; found += 1) {
    // lastIndexOf counts a negative start from the end, so position 0 must stop here.
    position = position === 0 ? -1 : bytes.lastIndexOf(NEWLINE, position - 1);
    if (position === -1) break;
  }
  return bytes
    .subarray(position + 1)
    .toString('utf8')
    .split('\n');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles the matcher; a literal becomes an escaped expression only when case is ignored. */
function compileMatcher(options: SearchOptions, limits: ArtifactReadLimits): (line: string) => number {
  const { pattern } = options;
  if (typeof pattern !== 'string' || pattern.length === 0)
    throw new InvalidSearchPatternError('The search pattern is empty; give the text to look for.');
  if (pattern.length > limits.maxPatternLength) {
    throw new InvalidSearchPatternError(
      `The search pattern has ${pattern.length} characters; use at most ${limits.maxPatternLength}.`,
    );
  }
  if (!options.regex && !options.ignoreCase) return (line) => line.indexOf(pattern);
  let expression: RegExp;
  try {
    expression = new RegExp(options.regex ? pattern : escapeRegExp(pattern), options.ignoreCase ? 'i' : '');
  } catch (error) {
    throw new InvalidSearchPatternError(
      `The pattern is not a valid JavaScript regular expression (${(error as Error).message}). Fix it, or search for literal text with regex: false.`,
      error,
    );
  }
  return (line) => line.search(expression);
}

function requireWhole(name: string, value: number | undefined, minimum: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < minimum)) {
    throw new InvalidArtifactRangeError(`${name} must be a whole number of at least ${minimum}; got ${String(value)}.`);
  }
}

/**
 * Searches the stored bytes line by line from `fromLine`. The work is bounded three ways: bytes
 * scanned (`searchScanBytes`), bytes of one line (`searchLineBytes`), and time spent matching
 * (`searchTimeMs`). Matching runs inside a `vm` script with a timeout, which V8 enforces even in
 * the middle of a backtracking regular expression, so `(a+)+$` cannot hang the process.
 */
export async function searchContent(
  path: string,
  totals: { byteLength: number; lineCount: number },
  mark: { lineNumber: number; byteOffset: number },
  options: SearchOptions,
  limits: ArtifactReadLimits,
): Promise<SearchResult> {
  const matcher = compileMatcher(options, limits);
  // Plain literals are first looked for in the raw bytes, so blocks without them are only counted.
  const literal =
    !options.regex && !options.ignoreCase && !options.pattern.includes('\uFFFD') && !options.pattern.includes('\n')
      ? Buffer.from(options.pattern, 'utf8')
      : undefined;
  requireWhole('maxMatches', options.maxMatches, 1);
  requireWhole('contextLines', options.contextLines, 0);
  requireWhole('fromLine', options.fromLine, 1);
  const maxMatches = Math.min(options.maxMatches ?? limits.defaultMatches, limits.maxMatches);
  const contextLines = Math.min(options.contextLines ?? 0, limits.maxContextLines);
  const capped = (options.maxMatches ?? 0) > limits.maxMatches || (options.contextLines ?? 0) > limits.maxContextLines;
  const fromLine = options.fromLine ?? 1;
  const { byteLength, lineCount } = totals;
  const collector = new SearchCollector(matcher, {
    maxMatches,
    contextLines,
    maxOutput: limits.maxBytes,
    maxLineCharacters: limits.maxLineCharacters,
  });
  const base = { fromLine, lineCount, byteLength, capped };
  const descriptor = openSync(path, 'r');
  try {
    const start = fromLine <= lineCount ? seekLine(descriptor, byteLength, mark, fromLine) : undefined;
    if (start === undefined) {
      return {
        ...base,
        lines: [],
        matchCount: 0,
        lastLine: fromLine - 1,
        stoppedBy: 'end',
        scannedBytes: 0,
        longLines: 0,
      };
    }
    const context = createContext({ task: undefined as undefined | (() => void) });
    const runner = new Script('task()');
    const deadline = Date.now() + limits.searchTimeMs;
    let position = start;
    let lineNumber = fromLine;
    let partial: Buffer[] = [];
    let partialLength = 0;
    let longLines = 0;
    let stoppedBy: SearchStop = 'end';
    const lines: ({ text: string; cut: boolean } | { middle: Buffer })[] = [];
    const finishLine = (): void => {
      const cut = partialLength > limits.searchLineBytes;
      if (cut) longLines += 1;
      const bytes = Buffer.concat(partial);
      lines.push({ text: (cut ? bytes.subarray(0, limits.searchLineBytes) : bytes).toString('utf8'), cut });
      partial = [];
      partialLength = 0;
    };
    while (position < byteLength && stoppedBy === 'end') {
      if (position - start >= limits.searchScanBytes) {
        stoppedBy = 'scanLimit';
        break;
      }
      const block = readAt(descriptor, position, Math.min(SCAN_BLOCK, byteLength - position));
      if (block.length === 0) break;
      position += block.length;
      // Lines wholly inside the block are decoded in one call; only the first and the last
      // line of a block can continue a line from, or into, a neighbouring block.
      const firstNewline = block.indexOf(NEWLINE);
      const lastNewline = block.lastIndexOf(NEWLINE);
      if (firstNewline !== -1) {
        keepPart(block.subarray(0, firstNewline));
        finishLine();
        if (lastNewline > firstNewline) lines.push({ middle: block.subarray(firstNewline + 1, lastNewline) });
      }
      if (lastNewline + 1 < block.length) {
        keepPart(block.subarray(lastNewline + 1));
        if (position >= byteLength) finishLine();
      }
      const batch = lines.splice(0);
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        stoppedBy = 'timeLimit';
        break;
      }
      context.task = () => {
        for (const item of batch) {
          if ('text' in item) {
            if (!collector.feed(lineNumber, item.text, item.cut)) break;
            lineNumber += 1;
            continue;
          }
          // A literal that occurs nowhere in these whole lines: count them, keep the context.
          if (literal && collector.canSkip && !occursIn(item.middle, literal)) {
            const count = countNewlines(item.middle) + 1;
            collector.skip(lineNumber, count, lastLines(item.middle, contextLines));
            lineNumber += count;
            continue;
          }
          let stopped = false;
          for (const text of item.middle.toString('utf8').split('\n')) {
            const cut = text.length > limits.searchLineBytes;
            if (cut) longLines += 1;
            if (!collector.feed(lineNumber, cut ? text.slice(0, limits.searchLineBytes) : text, cut)) {
              stopped = true;
              break;
            }
            lineNumber += 1;
          }
          if (stopped) break;
        }
      };
      try {
        runner.runInContext(context, { timeout: Math.max(1, remaining) });
      } catch (error) {
        if (error instanceof RangeError && options.regex) {
          throw new InvalidSearchPatternError(
            `The regular expression failed on line ${lineNumber} (${error.message}); it is too complex for this input. Simplify it, or search for literal text.`,
            error,
          );
        }
        if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
        stoppedBy = 'timeLimit';
        lineNumber += 1; // the line that was too slow is given up
        break;
      }
      if (collector.stoppedBy) {
        stoppedBy = collector.stoppedBy;
        break;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (stoppedBy === 'end' && collector.stoppedBy) stoppedBy = collector.stoppedBy;
    const nextLine = stoppedBy === 'end' ? undefined : (collector.nextLine ?? lineNumber);
    return {
      ...base,
      lines: collector.lines,
      matchCount: collector.matchCount,
      lastLine: (nextLine ?? lineNumber) - 1,
      ...(nextLine !== undefined && nextLine <= lineCount ? { nextLine } : {}),
      stoppedBy,
      scannedBytes: position - start,
      longLines,
    };

    function keepPart(part: Buffer): void {
      const room = limits.searchLineBytes + 1 - partialLength;
      if (room <= 0) return;
      const kept = part.length > room ? part.subarray(0, room) : part;
      partial.push(kept);
      partialLength += kept.length;
    }
  } finally {
    closeSync(descriptor);
  }
}
