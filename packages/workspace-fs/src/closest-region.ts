import { numbered } from './text-lines.js';

const MAX_SHOWN_LINES = 30;
const MAX_COMPARED_CHARACTERS = 400;

/** The part of a file that most resembles an old text that was not found. */
export interface ClosestRegion {
  /** First line of the region, 1-based. */
  readonly startLine: number;
  /** Last line of the region, 1-based, inclusive. */
  readonly endLine: number;
  /** The region's lines with their numbers, as `  12 | text`. */
  readonly excerpt: string;
  /** Whether the region equals the old text once whitespace at line ends is ignored. */
  readonly differsOnlyInWhitespace: boolean;
}

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const bounded = text.slice(0, MAX_COMPARED_CHARACTERS);
  for (let index = 0; index < bounded.length - 1; index += 1) {
    const pair = bounded.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Dice similarity of two lines by character pairs: 1 equal, 0 nothing shared. */
function similarity(left: string, right: string): number {
  if (left === right) return 1;
  if (left.length < 2 || right.length < 2) return 0;
  const leftPairs = bigrams(left);
  let shared = 0;
  let rightTotal = 0;
  for (const [pair, count] of bigrams(right)) {
    rightTotal += count;
    const available = leftPairs.get(pair) ?? 0;
    shared += Math.min(available, count);
  }
  let leftTotal = 0;
  for (const count of leftPairs.values()) leftTotal += count;
  return (2 * shared) / (leftTotal + rightTotal);
}

/**
 * Finds where `oldText` most likely was meant to match in `text`: the window of lines where the
 * most lines agree once indentation is ignored, or failing that the line most like the old
 * text's first line. Lets a model fix a stale or mistyped old text in one step.
 */
export function closestRegion(text: string, oldText: string): ClosestRegion | undefined {
  const fileLines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const oldLines = oldText
    .replace(/^\n+|\n+$/g, '')
    .split('\n')
    .map((line) => line.replace(/\r$/, ''));
  const fileTrimmed = fileLines.map((line) => line.trim());
  const oldTrimmed = oldLines.map((line) => line.trim());

  const positions = new Map<string, number[]>();
  fileTrimmed.forEach((line, index) => {
    if (line === '') return;
    const list = positions.get(line);
    if (list) list.push(index);
    else positions.set(line, [index]);
  });
  const votes = new Map<number, number>();
  oldTrimmed.forEach((line, offset) => {
    if (line === '') return;
    for (const index of positions.get(line) ?? []) votes.set(index - offset, (votes.get(index - offset) ?? 0) + 1);
  });
  let start = -1;
  let best = 0;
  for (const [candidate, count] of votes) {
    if (count > best || (count === best && candidate < start)) {
      best = count;
      start = candidate;
    }
  }
  if (best === 0) {
    const first = oldTrimmed.find((line) => line !== '') ?? '';
    let score = 0.3;
    let matched = false;
    fileTrimmed.forEach((line, index) => {
      const current = similarity(line, first);
      if (current > score) {
        score = current;
        matched = true;
        start = index - oldTrimmed.indexOf(first);
      }
    });
    if (!matched) return undefined;
  }
  const first = Math.max(0, start);
  const last = Math.min(fileLines.length - 1, Math.max(first, start + oldLines.length - 1));
  const shown = fileLines.slice(first, Math.min(last + 1, first + MAX_SHOWN_LINES));
  const region = fileTrimmed.slice(first, last + 1);
  const differsOnlyInWhitespace =
    region.length === oldTrimmed.length && region.every((line, index) => line === oldTrimmed[index]);
  const more = last + 1 - first > shown.length ? `\n… (${last + 1 - first - shown.length} more lines)` : '';
  return {
    startLine: first + 1,
    endLine: last + 1,
    excerpt: numbered(shown, first + 1) + more,
    differsOnlyInWhitespace,
  };
}
