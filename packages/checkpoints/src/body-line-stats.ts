import { isUtf8 } from 'node:buffer';
import { lineStats } from './line-diff.js';

const NEWLINE = 0x0a;
/** Bytes compared per step while looking for the first difference. */
const STEP = 4096;

/** Length of the common start of `left` and `right`, in bytes. */
function commonPrefixBytes(left: Buffer, right: Buffer): number {
  const limit = Math.min(left.length, right.length);
  let length = 0;
  while (length + STEP <= limit && left.compare(right, length, length + STEP, length, length + STEP) === 0)
    length += STEP;
  while (length < limit && left[length] === right[length]) length += 1;
  return length;
}

/** Length of the common end of `left` and `right`, in bytes, at most `limit`. */
function commonSuffixBytes(left: Buffer, right: Buffer, limit: number): number {
  let length = 0;
  while (
    length + STEP <= limit &&
    left.compare(
      right,
      right.length - length - STEP,
      right.length - length,
      left.length - length - STEP,
      left.length - length,
    ) === 0
  )
    length += STEP;
  while (length < limit && left[left.length - 1 - length] === right[right.length - 1 - length]) length += 1;
  return length;
}

/** Lines in `body` from `start` to `end`, as `splitLines` counts them: a last line without a newline counts. */
function lineCount(body: Buffer, start: number, end: number): number {
  let count = 0;
  for (let at = body.indexOf(NEWLINE, start); at !== -1 && at < end; at = body.indexOf(NEWLINE, at + 1)) count += 1;
  return end > start && body[end - 1] !== NEWLINE ? count + 1 : count;
}

/** Whether `body` reads as text: no NUL byte, valid UTF-8 (as `decodeText` judges it). */
export function isTextBody(body: Buffer): boolean {
  return !body.includes(0) && isUtf8(body);
}

/**
 * Line statistics of a change from `before` to `after` (file bodies), or `binary` when either is
 * not text (a NUL byte or invalid UTF-8). Equal to `lineStats` of the decoded texts, but only the
 * lines between the common first and last whole lines are decoded and diffed: an edit of one line
 * in a large file costs two byte comparisons, not two decodes and a line split of the whole file.
 */
export function bodyLineStats(
  before: Buffer,
  after: Buffer,
): { readonly binary: true } | { readonly binary: false; readonly linesAdded: number; readonly linesRemoved: number } {
  if (!isTextBody(before) || !isTextBody(after)) return { binary: true };
  // A byte-order mark is dropped by decoding: leave such files to the whole-text path.
  const bom = (body: Buffer) => body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  if (bom(before) || bom(after))
    return {
      binary: false,
      ...lineStats(before.toString('utf8').replace(/^\uFEFF/, ''), after.toString('utf8').replace(/^\uFEFF/, '')),
    };
  // Whole lines only: the prefix ends just after a newline, the suffix starts just after one.
  const common = commonPrefixBytes(before, after);
  const prefix = common === 0 ? 0 : before.lastIndexOf(NEWLINE, common - 1) + 1;
  const room = Math.min(before.length, after.length) - prefix;
  const suffixBytes = commonSuffixBytes(before, after, room);
  // The suffix starts after the first newline inside the common end (a newline in both files),
  // so it holds only whole lines of both.
  const newline = suffixBytes === 0 ? -1 : before.indexOf(NEWLINE, before.length - suffixBytes);
  const suffix = newline === -1 ? 0 : before.length - newline - 1;
  // Lines only added or only removed (an append, an insertion, a deletion) need no diff.
  if (before.length - suffix === prefix || after.length - suffix === prefix)
    return {
      binary: false,
      linesAdded: lineCount(after, prefix, after.length - suffix),
      linesRemoved: lineCount(before, prefix, before.length - suffix),
    };
  return {
    binary: false,
    ...lineStats(
      before.toString('utf8', prefix, before.length - suffix),
      after.toString('utf8', prefix, after.length - suffix),
    ),
  };
}
