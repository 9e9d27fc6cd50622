import { Worker } from 'node:worker_threads';

/** One file handed to the regular-expression worker. */
export interface RegexEntry {
  /** File name, matched as a whole. */
  readonly name: string;
  /** Decoded text, matched line by line; null when the content is not searched. */
  readonly text: string | null;
}

/** A match the worker found: `line` 0 means the file name matched. */
export interface RegexHit {
  readonly entry: number;
  readonly line: number;
  readonly preview: string;
}

// Plain JavaScript, evaluated in a worker thread: a user's regular expression can backtrack for
// ever (`(a+)+$`), and JavaScript cannot interrupt a running match, so it runs where the whole
// thread can be terminated when the time budget runs out.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
function preview(line, column) {
  const start = Math.max(0, column - 80);
  const end = Math.min(line.length, column + 120);
  return (start > 0 ? '…' : '') + line.slice(start, end).trim() + (end < line.length ? '…' : '');
}
parentPort.on('message', ({ entries, limit }) => {
  const hits = [];
  outer: for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index];
    if (regex.test(entry.name)) {
      hits.push({ entry: index, line: 0, preview: entry.name });
      if (hits.length >= limit) break;
    }
    const text = entry.text;
    if (text === null) continue;
    let start = 0;
    let lineNumber = 0;
    while (start <= text.length) {
      let end = text.indexOf('\\n', start);
      if (end < 0) end = text.length;
      lineNumber += 1;
      const line = text.slice(start, end);
      const match = regex.exec(line);
      if (match) {
        hits.push({ entry: index, line: lineNumber, preview: preview(line, match.index) });
        if (hits.length >= limit) break outer;
      }
      if (end === text.length) break;
      start = end + 1;
    }
  }
  parentPort.postMessage(hits);
});
`;

/** Thrown by {@link RegexWorker.match} when the time budget ran out; the worker is gone. */
export class RegexTimeout extends Error {}

/** A worker thread that matches one regular expression, stoppable when it runs too long. */
export class RegexWorker {
  private readonly worker: Worker;
  private readonly deadline: number;
  private failure: Error | undefined;

  constructor(source: string, flags: string, timeMs: number) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source, flags } });
    this.worker.on('error', (error) => {
      this.failure = error;
    });
    this.deadline = Date.now() + timeMs;
  }

  /** Matches `entries`, returning at most `limit` hits; rejects with {@link RegexTimeout}. */
  match(entries: readonly RegexEntry[], limit: number): Promise<RegexHit[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const remaining = this.deadline - Date.now();
      const timer = setTimeout(() => {
        cleanup();
        void this.worker.terminate();
        reject(new RegexTimeout('The regular expression ran past its time budget'));
      }, Math.max(0, remaining));
      const onMessage = (hits: RegexHit[]): void => {
        cleanup();
        resolve(hits);
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.postMessage({ entries, limit });
    });
  }

  /** Stops the worker thread. */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
