import type { ArtifactReadLimits } from './artifact-limits.js';
import type { SearchResult } from './keyword-search.js';
import type { ByteRangeResult, LineRangeResult } from './range-reads.js';
import type { ReadArtifactInput } from './read-artifact-input.js';

const format = (value: number): string => value.toLocaleString('en-US');
const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Uint8Array): { text: string; invalid: boolean } {
  try {
    return { text: fatalDecoder.decode(bytes), invalid: false };
  } catch {
    return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), invalid: true };
  }
}

const INVALID_NOTE = '(Some bytes are not valid UTF-8; each is shown as U+FFFD "�".)';

/** The model-facing answer to a byte-range read. */
export function formatByteRange(id: string, state: 'open' | 'complete', result: ByteRangeResult): string {
  const total = `${format(result.byteLength)} bytes${state === 'open' ? ' stored so far; the artifact is still being written' : ''}`;
  if (result.pastEnd) {
    return `Artifact ${id}: offset ${format(result.offset)} is at or past the end (${total}). Nothing to read there; read from an offset below ${format(result.byteLength)}${state === 'open' ? ', or later, once more output has arrived' : ''}.`;
  }
  const { text, invalid } = decode(result.bytes);
  const header =
    `Artifact ${id}, bytes ${format(result.offset)}-${format(result.endOffset - 1)} (${format(result.bytes.length)} bytes) of ${total}.` +
    (result.capped ? ` The length asked for was cut to the cap of one read.` : '') +
    (invalid ? ` ${INVALID_NOTE}` : '');
  const next =
    result.nextOffset !== undefined
      ? `[Next: {"id":"${id}","offset":${result.nextOffset}}]`
      : state === 'open'
        ? `[End of the bytes stored so far. Follow the log later with {"id":"${id}","offset":${result.endOffset}}]`
        : '[End of artifact.]';
  return `${header}\n${text}${text.endsWith('\n') || text.length === 0 ? '' : '\n'}${next}`;
}

/** The model-facing answer to a line-range read: each line numbered. */
export function formatLineRange(id: string, result: LineRangeResult): string {
  if (result.pastEnd) {
    return (
      `Artifact ${id}: line ${format(result.startLine)} is past the end; it has ${format(result.lineCount)} lines (${format(result.byteLength)} bytes).` +
      (result.lineCount > 0 ? ` Ask for startLine between 1 and ${format(result.lineCount)}.` : ' It is empty.')
    );
  }
  const { text, invalid } = decode(result.bytes);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const numbered = lines.map((line, index) => `${result.startLine + index}: ${line}`).join('\n');
  const header =
    `Artifact ${id}, lines ${format(result.startLine)}-${format(result.endLine)} of ${format(result.lineCount)} (bytes ${format(result.startOffset)}-${format(result.endOffset - 1)} of ${format(result.byteLength)}).` +
    (result.capped ? ' The range asked for was cut to the cap of one read.' : '') +
    (invalid ? ` ${INVALID_NOTE}` : '');
  const next = result.lastLineCut
    ? `[Line ${format(result.endLine)} continues past the cap; read on with {"id":"${id}","offset":${result.nextOffset}}]`
    : result.nextLine !== undefined
      ? `[Next: {"id":"${id}","startLine":${result.nextLine}}]`
      : '[End of artifact.]';
  return `${header}\n${numbered}\n${next}`;
}

/** The model-facing answer to a search: grep-like lines (`12: match`, `13- context`, `--` between groups). */
export function formatSearch(input: ReadArtifactInput, result: SearchResult, limits: ArtifactReadLimits): string {
  const kind = input.regex ? 'regular expression' : 'text';
  const scope = `lines ${format(result.fromLine)}-${format(Math.max(result.fromLine - 1, result.lastLine))} of ${format(result.lineCount)}`;
  const header =
    `Artifact ${input.id}: ${result.matchCount} ${result.matchCount === 1 ? 'match' : 'matches'} for ${kind} ${JSON.stringify(input.pattern)}${input.ignoreCase ? ' (ignoring case)' : ''} in ${scope}.` +
    (result.capped ? ' maxMatches or contextLines was cut to its cap.' : '') +
    (result.longLines > 0
      ? ` ${result.longLines} line(s) longer than ${format(limits.searchLineBytes)} bytes were searched only in their beginning.`
      : '');
  const body: string[] = [];
  let previous = 0;
  for (const line of result.lines) {
    if (previous !== 0 && line.lineNumber > previous + 1) body.push('--');
    body.push(`${line.lineNumber}${line.match ? ':' : '-'} ${line.text}${line.cut ? ' …[line cut]' : ''}`);
    previous = line.lineNumber;
  }
  const continueWith = (line: number): string =>
    JSON.stringify({
      id: input.id,
      pattern: input.pattern,
      ...(input.regex ? { regex: true } : {}),
      ...(input.ignoreCase ? { ignoreCase: true } : {}),
      fromLine: line,
    });
  const rest =
    result.nextLine !== undefined
      ? ` Lines ${format(result.nextLine)}-${format(result.lineCount)} were not searched yet.`
      : '';
  const next = {
    end:
      result.fromLine > result.lineCount
        ? `[fromLine is past the end: the artifact has ${format(result.lineCount)} lines.]`
        : '[Searched to the end of the artifact.]',
    maxMatches:
      result.nextLine !== undefined
        ? `[Stopped at ${result.matchCount} matches.${rest} Continue: ${continueWith(result.nextLine)}]`
        : '[Searched to the end of the artifact.]',
    outputLimit: `[Stopped: the answer reached its size cap (${format(limits.maxBytes)} bytes).${rest} Continue: ${continueWith(result.nextLine ?? result.lastLine + 1)}]`,
    scanLimit: `[Stopped: this search scanned its budget of ${format(limits.searchScanBytes)} bytes.${rest} A zero count above covers only the lines searched. Continue: ${continueWith(result.nextLine ?? result.lastLine + 1)}]`,
    timeLimit: `[Stopped: the search used its time budget of ${format(limits.searchTimeMs)} ms (the usual cause is a regular expression that backtracks heavily, with nested quantifiers such as (a+)+).${rest} Simplify the pattern or search for literal text; to go on past this point: ${continueWith(result.nextLine ?? result.lastLine + 1)}]`,
  }[result.stoppedBy];
  return `${header}\n${body.length > 0 ? `${body.join('\n')}\n` : ''}${next}`;
}
