/** One line of a search answer: a match or a line of context around one. */
export interface SearchLine {
  readonly lineNumber: number;
  /** The line's text, cut to the display cap around the match (see `cut`). */
  readonly text: string;
  readonly match: boolean;
  /** True when the text shown is only part of the line. */
  readonly cut: boolean;
}

interface CollectorOptions {
  readonly maxMatches: number;
  readonly contextLines: number;
  readonly maxOutput: number;
  readonly maxLineCharacters: number;
}

/**
 * Collects matches with grep-like context as lines stream past, and decides when to stop: after
 * `maxMatches` (once their trailing context is in) or when the answer would pass `maxOutput`.
 */
export class SearchCollector {
  readonly lines: SearchLine[] = [];
  matchCount = 0;
  stoppedBy: 'maxMatches' | 'outputLimit' | undefined;
  /** Where a continued search should start, once the collector has stopped. */
  nextLine: number | undefined;
  private outputSize = 0;
  private lastEmitted = 0;
  private afterRemaining = 0;
  private readonly recent: { lineNumber: number; text: string; cut: boolean }[] = [];

  constructor(
    private readonly matcher: (line: string) => number,
    private readonly options: CollectorOptions,
  ) {}

  /** Whether lines known not to match may be skipped: no trailing context is pending. */
  get canSkip(): boolean {
    return this.stoppedBy === undefined && this.afterRemaining === 0 && this.matchCount < this.options.maxMatches;
  }

  /** Passes over `count` lines that do not match; `tail` are the last of them, kept as context. */
  skip(firstLine: number, count: number, tail: readonly string[]): void {
    this.recent.length = 0;
    tail.forEach((text, index) =>
      this.recent.push({ lineNumber: firstLine + count - tail.length + index, text, cut: false }),
    );
  }

  /** Feeds the next line; returns false once the search should stop. */
  feed(lineNumber: number, text: string, cut: boolean): boolean {
    if (this.stoppedBy) return false;
    const finishing = this.matchCount >= this.options.maxMatches;
    const at = finishing ? -1 : this.matcher(text);
    if (at !== -1) {
      const before = this.recent.filter((line) => line.lineNumber > this.lastEmitted);
      const pending = [
        ...before.map((line) => this.shown(line.lineNumber, line.text, line.cut, false, 0)),
        this.shown(lineNumber, text, cut, true, at),
      ];
      const size = pending.reduce((total, line) => total + line.text.length + 12, 0);
      if (this.outputSize + size > this.options.maxOutput && this.matchCount > 0) {
        return this.stop('outputLimit', lineNumber);
      }
      this.emit(pending);
      this.matchCount += 1;
      this.afterRemaining = this.options.contextLines;
    } else if (this.afterRemaining > 0) {
      this.afterRemaining -= 1;
      this.emit([this.shown(lineNumber, text, cut, false, 0)]);
    }
    if (this.matchCount >= this.options.maxMatches && this.afterRemaining === 0) {
      return this.stop('maxMatches', lineNumber + 1);
    }
    if (this.options.contextLines > 0) {
      this.recent.push({ lineNumber, text, cut });
      if (this.recent.length > this.options.contextLines) this.recent.shift();
    }
    return true;
  }

  private stop(reason: 'maxMatches' | 'outputLimit', nextLine: number): false {
    this.stoppedBy = reason;
    this.nextLine = nextLine;
    return false;
  }

  private emit(lines: SearchLine[]): void {
    for (const line of lines) {
      this.lines.push(line);
      this.outputSize += line.text.length + 12;
      this.lastEmitted = line.lineNumber;
    }
  }

  /** The line as shown: whole when short, else a window that starts shortly before the match. */
  private shown(lineNumber: number, text: string, cut: boolean, match: boolean, at: number): SearchLine {
    const limit = this.options.maxLineCharacters;
    if (text.length <= limit) return { lineNumber, text, match, cut };
    const start = Math.max(0, Math.min(at - Math.floor(limit / 4), text.length - limit));
    return { lineNumber, text: text.slice(start, start + limit), match, cut: true };
  }
}
