import type { SessionEvent, SessionEventOf } from '@clawsmith/session-protocol';
import { summarizeEvent } from './event-summary.js';
import { ProgressLine } from './progress-line.js';
import { progressText } from './progress-text.js';
import type { TerminalStyle } from './terminal-style.js';
import { oneLine, terminalSafe } from './terminal-text.js';

/** Events after which the model is no longer being waited for. */
const THINKING_ENDS = new Set([
  'request.completed',
  'request.failed',
  'assistant.message',
  'tool.started',
  'turn.completed',
]);

/**
 * Prints a turn as a person reads it: the model's text as it streams, one line per tool call
 * with status and code, and a spinner with elapsed time while a tool runs (with its latest
 * `tool.progress`) or the model is thinking (from a request until its first text or its end;
 * terminals only: progress never adds lines, so piped output stays one line per call).
 * Everything a model or tool produced is sanitised before it is written.
 */
export class TranscriptPrinter {
  readonly #stream: NodeJS.WritableStream;
  readonly #style: TerminalStyle;
  readonly #progress: ProgressLine;
  readonly #running = new Map<string, { label: string; startedAt: number; detail: string }>();
  readonly #textPrefix: string;
  #midLine = false;
  /** Since when the model has been asked and has not answered yet (a spinner says so on a terminal). */
  #thinkingSince: number | undefined;

  /** `textPrefix` starts each new line of model text (for example `model: `). */
  constructor(stream: NodeJS.WritableStream, style: TerminalStyle, textPrefix = '') {
    this.#stream = stream;
    this.#style = style;
    this.#textPrefix = textPrefix;
    this.#progress = new ProgressLine(stream, style);
  }

  /** Streams model text. */
  textDelta(text: string): void {
    const safe = terminalSafe(text);
    if (safe === '') return;
    this.#thinkingSince = undefined;
    this.#progress.stop();
    this.#stream.write(this.#midLine ? safe : `${this.#textPrefix}${safe}`);
    this.#midLine = !safe.endsWith('\n');
  }

  /** Ends a partly written line of model text. */
  endLine(): void {
    if (this.#midLine) this.#stream.write('\n');
    this.#midLine = false;
  }

  /** Writes a line of the printer's own (already safe) text. */
  line(text: string): void {
    this.#progress.stop();
    this.endLine();
    this.#stream.write(`${text}\n`);
    this.#resumeProgress();
  }

  /** Shows one persisted event, when a person needs to see it. */
  event(event: SessionEvent): void {
    if (event.type === 'tool.progress') {
      this.#showProgress(event);
      return;
    }
    if (event.type === 'tool.completed') this.#running.delete(event.toolCallId);
    if (event.type === 'request.started') this.#thinkingSince = Date.now();
    if (THINKING_ENDS.has(event.type) && this.#thinkingSince !== undefined) {
      this.#thinkingSince = undefined;
      this.#progress.stop();
      this.#resumeProgress();
    }
    const summary = summarizeEvent(event, this.#style);
    if (summary !== undefined) this.line(summary);
    if (event.type === 'tool.started') {
      this.#running.set(event.toolCallId, {
        label: `${oneLine(event.toolName, 40)} ${oneLine(event.summary, 60)}`,
        startedAt: Date.now(),
        detail: '',
      });
      this.#resumeProgress();
    }
    if (event.type === 'request.started') this.#resumeProgress();
    if (event.type === 'turn.completed') this.stop();
  }

  /** Stops the spinner for good (end of a turn, or a prompt is about to be shown). */
  stop(): void {
    this.#running.clear();
    this.#thinkingSince = undefined;
    this.#progress.stop();
    this.endLine();
  }

  #showProgress(event: SessionEventOf<'tool.progress'>): void {
    const callId = event.toolCallId;
    const running = this.#running.get(callId);
    const detail = progressText(event);
    if (running === undefined || detail === undefined) return;
    running.detail = detail;
    // Only the newest running call has the line; an older one's progress waits until it is shown.
    if ([...this.#running.keys()].at(-1) === callId) this.#progress.setDetail(detail);
  }

  #resumeProgress(): void {
    const running = [...this.#running.values()].at(-1);
    if (running !== undefined) this.#progress.start(running.label, running.startedAt, 250, running.detail);
    else if (this.#thinkingSince !== undefined) this.#progress.start('thinking', this.#thinkingSince);
  }
}
