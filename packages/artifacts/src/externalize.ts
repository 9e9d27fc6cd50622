import type { ArtifactReference } from '@clawsmith/tool-protocol';
import { InvalidArtifactOptionsError } from './artifact-errors.js';
import { DEFAULT_EXTERNALIZE_THRESHOLD } from './artifact-limits.js';

const NEWLINE = 0x0a;

/** Options of `ArtifactStore.externalize`. */
export interface ExternalizeOptions {
  readonly sessionId: string;
  readonly toolCallId: string;
  /** Content longer than this many UTF-8 bytes is stored as an artifact. Default 50,000. */
  readonly threshold?: number;
  /** Media type of the stored artifact; default `text/plain; charset=utf-8`. */
  readonly mediaType?: string;
}

/** The text to keep inline and, when the content was stored, its reference. */
export interface ExternalizedContent {
  /** The content itself, or a head-and-tail preview with a marker saying how to read the rest. */
  readonly content: string;
  readonly artifact?: ArtifactReference;
}

type Write = (
  content: Uint8Array,
  owner: { sessionId: string; toolCallId: string; mediaType?: string },
) => Promise<ArtifactReference>;

function countNewlines(bytes: Buffer): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) count += 1;
  return count;
}

/** Where the preview's head ends: after the last newline in its budget, or on a character boundary. */
function headEnd(bytes: Buffer, budget: number): number {
  const newline = bytes.lastIndexOf(NEWLINE, budget - 1);
  if (newline >= budget / 2) return newline + 1;
  let end = budget;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return end;
}

/** Where the preview's tail starts: after the first newline in its budget, or on a character boundary. */
function tailStart(bytes: Buffer, budget: number): number {
  const from = bytes.length - budget;
  const newline = bytes.indexOf(NEWLINE, from);
  if (newline !== -1 && newline < from + budget / 2) return newline + 1;
  let start = from;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start += 1;
  return start;
}

const format = (value: number): string => value.toLocaleString('en-US');

/**
 * Returns `content` unchanged when it fits `threshold` bytes; otherwise stores it whole and
 * returns its head (about 40 % of the threshold, at most 6,000 bytes) and tail (about 20 %, at
 * most 3,000 bytes), cut at line ends where possible, around a marker that says which bytes and
 * lines were left out and gives ready `read_artifact` inputs.
 */
export async function externalizeContent(
  content: string,
  options: ExternalizeOptions,
  write: Write,
): Promise<ExternalizedContent> {
  const threshold = options.threshold ?? DEFAULT_EXTERNALIZE_THRESHOLD;
  if (!Number.isSafeInteger(threshold) || threshold < 100) {
    throw new InvalidArtifactOptionsError(
      `threshold must be a whole number of bytes, at least 100; got ${String(threshold)}.`,
    );
  }
  if (typeof content !== 'string')
    throw new InvalidArtifactOptionsError('externalize takes the tool content as a string.');
  if (Buffer.byteLength(content, 'utf8') <= threshold) return { content };
  const bytes = Buffer.from(content, 'utf8');
  const artifact = await write(bytes, options);
  const head = headEnd(bytes, Math.min(6_000, Math.floor(threshold * 0.4)));
  const tail = tailStart(bytes, Math.min(3_000, Math.floor(threshold * 0.2)));
  const headBytes = bytes.subarray(0, head);
  const tailBytes = bytes.subarray(tail);
  const totalNewlines = artifact.lineCount - (bytes[bytes.length - 1] === NEWLINE ? 0 : 1);
  const firstLine = countNewlines(headBytes) + 1;
  const lastLine = totalNewlines - countNewlines(tailBytes) - (bytes[tail - 1] === NEWLINE ? 1 : 0) + 1;
  const id = artifact.id;
  const marker =
    `${bytes[head - 1] === NEWLINE ? '' : '\n'}… [${format(tail - head)} bytes left out (bytes ${format(head)}-${format(tail - 1)}, lines ${format(firstLine)}-${format(lastLine)}` +
    ` of ${format(artifact.lineCount)}). The full output (${format(artifact.byteLength)} bytes) is artifact ${id}. Read the rest with read_artifact:` +
    ` {"id":"${id}","startLine":${firstLine}} for lines, {"id":"${id}","offset":${head}} for bytes, or {"id":"${id}","pattern":"<text>"} to search.] …\n`;
  return { content: `${headBytes.toString('utf8')}${marker}${tailBytes.toString('utf8')}`, artifact };
}
