/** The 1-based line number of character `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  let newline = text.indexOf('\n');
  while (newline >= 0 && newline < index) {
    line += 1;
    newline = text.indexOf('\n', newline + 1);
  }
  return line;
}

/** Every index where `needle` starts in `text`, overlapping occurrences included. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  let index = text.indexOf(needle);
  while (index >= 0) {
    found.push(index);
    index = text.indexOf(needle, index + 1);
  }
  return found;
}

/** How many lines `text` spans (an empty text spans none; a trailing newline ends the last). */
export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** `lines` prefixed with their 1-based numbers from `first`, as `  12 | text`. */
export function numbered(lines: readonly string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines.map((line, offset) => `${String(first + offset).padStart(width)} | ${line}`).join('\n');
}
