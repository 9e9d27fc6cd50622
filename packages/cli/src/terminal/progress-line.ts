import type { TerminalStyle } from './terminal-style.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A spinner with elapsed seconds on one line of a terminal, for a tool that is still running,
 * with the tool's latest progress (`3/10 · message`) when it reports any; the line is redrawn in
 * place. On anything but an interactive terminal it does nothing, so piped output stays clean.
 */
export class ProgressLine {
  readonly #stream: NodeJS.WritableStream;
  readonly #style: TerminalStyle;
  #timer: NodeJS.Timeout | undefined;
  #shown = false;
  #detail = '';

  constructor(stream: NodeJS.WritableStream, style: TerminalStyle) {
    this.#stream = stream;
    this.#style = style;
  }

  /**
   * Starts (or restarts) the line for `label` with `detail` (already safe text, such as progress),
   * timed from `startedAt`; it first appears after `delayMs` so quick tools do not flicker.
   */
  start(label: string, startedAt = Date.now(), delayMs = 250, detail = ''): void {
    this.stop();
    this.#detail = detail;
    if (!this.#style.interactive) return;
    let frame = 0;
    const draw = () => {
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      const detail = this.#detail ? ` ${this.#style.yellow(this.#detail)}` : '';
      this.#stream.write(
        `\r\u001b[2K  ${this.#style.cyan(FRAMES[frame++ % FRAMES.length]!)} ${label}${detail} ${this.#style.dim(`${seconds}s`)}`,
      );
      this.#shown = true;
    };
    this.#timer = setTimeout(() => {
      draw();
      this.#timer = setInterval(draw, 100);
      this.#timer.unref();
    }, delayMs);
    this.#timer.unref();
  }

  /** Replaces the detail of the running line; the next frame (within 100 ms) shows it. */
  setDetail(detail: string): void {
    this.#detail = detail;
  }

  /** Removes the line, leaving the cursor at the start of an empty line. */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#shown) this.#stream.write('\r\u001b[2K');
    this.#shown = false;
  }
}
