const NEWLINE = 0x0a;

/** One entry of the sparse line index: line `lineNumber` (1-based) starts at `byteOffset`. */
export interface LineMark {
  readonly lineNumber: number;
  readonly byteOffset: number;
}

/**
 * Builds the sparse line index of content that arrives in chunks. A mark is kept for the first
 * line that starts at least `interval` bytes after the previous mark, so finding where any line
 * starts means reading less than `interval` bytes from the nearest mark at or before it, however
 * long the lines are (the line after a 10 MB line gets its own mark).
 */
export class LineIndexBuilder {
  /** Bytes seen so far. */
  byteLength = 0;
  /** Newline bytes seen so far. */
  newlineCount = 0;
  private lastMarkOffset = 0;
  private pending: LineMark[] = [];
  private lastByte = NEWLINE;

  constructor(private readonly interval: number) {}

  /** Feeds the next chunk of content. */
  feed(content: Uint8Array): void {
    const chunk = Buffer.isBuffer(content)
      ? content
      : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    const base = this.byteLength;
    let index = chunk.indexOf(NEWLINE);
    while (index !== -1) {
      this.newlineCount += 1;
      const lineStart = base + index + 1;
      if (lineStart - this.lastMarkOffset >= this.interval) {
        this.pending.push({ lineNumber: this.newlineCount + 1, byteOffset: lineStart });
        this.lastMarkOffset = lineStart;
      }
      index = chunk.indexOf(NEWLINE, index + 1);
    }
    if (chunk.length > 0) this.lastByte = chunk[chunk.length - 1]!;
    this.byteLength += chunk.length;
  }

  /** Lines so far; a last line without a newline counts, an empty content has none. */
  get lineCount(): number {
    return this.newlineCount + (this.byteLength > 0 && this.lastByte !== NEWLINE ? 1 : 0);
  }

  /** Takes the marks found since the last call. */
  takeMarks(): LineMark[] {
    const marks = this.pending;
    this.pending = [];
    return marks;
  }
}

/** Lines in `content`, counted as {@link LineIndexBuilder.lineCount} does. */
export function countLines(content: Uint8Array): number {
  const builder = new LineIndexBuilder(Number.MAX_SAFE_INTEGER);
  builder.feed(content);
  return builder.lineCount;
}
