import type { ArtifactReadLimits } from './artifact-limits.js';
import { InvalidArtifactRangeError } from './artifact-errors.js';
import { readAt } from './content-files.js';

const NEWLINE = 0x0a;
const SEEK_BLOCK = 64 * 1024;

/** A byte range to read: `length` bytes from `offset` (0-based). */
export interface ByteRange {
  readonly offset: number;
  readonly length?: number;
}

/** A line range to read: `startLine` to `endLine`, 1-based and inclusive. */
export interface LineRange {
  readonly startLine: number;
  readonly endLine?: number;
}

/** Bytes of an artifact and where the next read starts. */
export interface ByteRangeResult {
  readonly bytes: Uint8Array;
  /** First byte returned. */
  readonly offset: number;
  /** One past the last byte returned. */
  readonly endOffset: number;
  /** Where the next byte read should start; undefined at the end of the stored bytes. */
  readonly nextOffset?: number;
  /** Stored bytes when the read was served (an open artifact may grow). */
  readonly byteLength: number;
  /** True when the asked length was larger than the cap and was cut to it. */
  readonly capped: boolean;
  /** True when `offset` is at or past the end of the stored bytes. */
  readonly pastEnd: boolean;
}

/** Lines of an artifact and where the next read starts. */
export interface LineRangeResult {
  readonly bytes: Uint8Array;
  readonly startLine: number;
  /** Last line included (possibly only its beginning: see `lastLineCut`). */
  readonly endLine: number;
  readonly startOffset: number;
  readonly endOffset: number;
  /** True when the last line was cut at the byte cap; continue it with `nextOffset`. */
  readonly lastLineCut: boolean;
  /** The next line to read, when more lines exist and the last line was whole. */
  readonly nextLine?: number;
  /** Where to continue a cut line by byte range. */
  readonly nextOffset?: number;
  readonly lineCount: number;
  readonly byteLength: number;
  /** True when the asked range was larger than the caps and was cut to them. */
  readonly capped: boolean;
  /** True when `startLine` is past the last line. */
  readonly pastEnd: boolean;
}

function requireInteger(name: string, value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new InvalidArtifactRangeError(`${name} must be a whole number of at least ${minimum}; got ${String(value)}.`);
  }
}

/** Reads a byte range, bounded by `limits.maxBytes`, never past `byteLength`. */
export function readByteRange(
  descriptor: number,
  byteLength: number,
  range: ByteRange,
  limits: ArtifactReadLimits,
): ByteRangeResult {
  requireInteger('offset', range.offset, 0);
  const asked = range.length ?? limits.maxBytes;
  requireInteger('length', asked, 1);
  const length = Math.min(asked, limits.maxBytes);
  const capped = asked > limits.maxBytes;
  if (range.offset >= byteLength) {
    return {
      bytes: new Uint8Array(0),
      offset: range.offset,
      endOffset: range.offset,
      byteLength,
      capped,
      pastEnd: true,
    };
  }
  const end = Math.min(byteLength, range.offset + length);
  const bytes = readAt(descriptor, range.offset, end - range.offset);
  const endOffset = range.offset + bytes.length;
  return {
    bytes,
    offset: range.offset,
    endOffset,
    ...(endOffset < byteLength ? { nextOffset: endOffset } : {}),
    byteLength,
    capped,
    pastEnd: false,
  };
}

/**
 * Finds where `targetLine` starts by reading forward from the nearest index mark at or before
 * it: less than one index interval of bytes. Returns undefined when the line does not exist.
 */
export function seekLine(
  descriptor: number,
  byteLength: number,
  mark: { lineNumber: number; byteOffset: number },
  targetLine: number,
): number | undefined {
  let line = mark.lineNumber;
  let position = mark.byteOffset;
  while (line < targetLine) {
    if (position >= byteLength) return undefined;
    const block = readAt(descriptor, position, Math.min(SEEK_BLOCK, byteLength - position));
    if (block.length === 0) return undefined;
    let index = block.indexOf(NEWLINE);
    while (index !== -1 && line < targetLine) {
      line += 1;
      if (line === targetLine) return position + index + 1 < byteLength ? position + index + 1 : undefined;
      index = block.indexOf(NEWLINE, index + 1);
    }
    position += block.length;
  }
  return position < byteLength ? position : undefined;
}

/** Reads a line range, bounded by `limits.maxLines` and `limits.maxBytes`. */
export function readLineRange(
  descriptor: number,
  totals: { byteLength: number; lineCount: number },
  range: LineRange,
  mark: { lineNumber: number; byteOffset: number },
  limits: ArtifactReadLimits,
): LineRangeResult {
  requireInteger('startLine', range.startLine, 1);
  const askedEnd = range.endLine ?? range.startLine + limits.maxLines - 1;
  requireInteger('endLine', askedEnd, 1);
  if (askedEnd < range.startLine) {
    throw new InvalidArtifactRangeError(
      `endLine (${askedEnd}) is before startLine (${range.startLine}); ask for startLine <= endLine.`,
    );
  }
  const { byteLength, lineCount } = totals;
  const endLine = Math.min(askedEnd, range.startLine + limits.maxLines - 1);
  let capped = endLine < askedEnd;
  const startOffset =
    range.startLine <= lineCount ? seekLine(descriptor, byteLength, mark, range.startLine) : undefined;
  if (startOffset === undefined) {
    return {
      bytes: new Uint8Array(0),
      startLine: range.startLine,
      endLine: range.startLine - 1,
      startOffset: byteLength,
      endOffset: byteLength,
      lastLineCut: false,
      lineCount,
      byteLength,
      capped: false,
      pastEnd: true,
    };
  }
  const window = readAt(descriptor, startOffset, Math.min(limits.maxBytes, byteLength - startOffset));
  const wanted = endLine - range.startLine + 1;
  let seen = 0;
  let cut = -1;
  let index = window.indexOf(NEWLINE);
  while (index !== -1) {
    seen += 1;
    if (seen === wanted) {
      cut = index + 1;
      break;
    }
    index = window.indexOf(NEWLINE, index + 1);
  }
  let bytes: Buffer;
  let lastLine: number;
  let lastLineCut = false;
  if (cut !== -1) {
    bytes = window.subarray(0, cut);
    lastLine = endLine;
  } else if (startOffset + window.length >= byteLength) {
    bytes = window;
    lastLine = Math.min(
      lineCount,
      range.startLine + seen - (window.length > 0 && window[window.length - 1] === NEWLINE ? 1 : 0),
    );
  } else {
    // The byte cap came first: end at the last whole line, or cut a single long line.
    capped = true;
    const lastNewline = window.lastIndexOf(NEWLINE);
    if (lastNewline !== -1) {
      bytes = window.subarray(0, lastNewline + 1);
      lastLine = range.startLine + seen - 1;
    } else {
      bytes = window.subarray(0, utf8BoundaryBefore(window, window.length));
      lastLine = range.startLine;
      lastLineCut = true;
    }
  }
  const endOffset = startOffset + bytes.length;
  const more = endOffset < byteLength;
  return {
    bytes,
    startLine: range.startLine,
    endLine: lastLine,
    startOffset,
    endOffset,
    lastLineCut,
    ...(more && !lastLineCut ? { nextLine: lastLine + 1 } : {}),
    ...(more && lastLineCut ? { nextOffset: endOffset } : {}),
    lineCount,
    byteLength,
    capped,
    pastEnd: false,
  };
}

/**
 * The largest index at or before `end` that does not split a UTF-8 sequence (at most 3 bytes
 * back), so text cut there decodes cleanly and the next read starts on a character.
 */
export function utf8BoundaryBefore(bytes: Uint8Array, end: number): number {
  for (let back = 0; back < 4 && end - back > 0; back += 1) {
    const byte = bytes[end - back - 1]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back + 1 ? end - back - 1 : end;
  }
  return end;
}
