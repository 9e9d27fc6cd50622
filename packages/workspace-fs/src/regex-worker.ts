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
const { parentPort } = require('node:worker_threads');
let key = '';
let regex = null;
function preview(line, column) {
  const start = Math.max(0, column - 80);
  const end = Math.min(line.length, column + 120);
  return (start > 0 ? '…' : '') + line.slice(start, end).trim() + (end < line.length ? '…' : '');
}
parentPort.on('message', ({ source, flags, entries, limit }) => {
  if (regex === null || key !== flags + '/' + source) {
    regex = new RegExp(source, flags);
    key = flags + '/' + source;
  }
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

/**
 * Keeps one idle worker thread between searches (starting one costs tens of milliseconds), and
 * unreferenced, so an idle worker never keeps the process alive. Each search takes a worker
 * for itself; a worker stopped for running too long is never returned.
 */
export class RegexWorkerPool {
  private idle: Worker | undefined;

  /** A worker for one search: the idle one, or a new one. */
  acquire(): Worker {
    const worker = this.idle ?? this.start();
    this.idle = undefined;
    worker.ref();
    return worker;
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    // A search listens for its own errors; this keeps a failure while idle from crashing the host.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.idle === worker) this.idle = undefined;
    });
    return worker;
  }

  /** Returns a healthy worker after a search. */
  release(worker: Worker): void {
    if (this.idle) {
      void worker.terminate();
      return;
    }
    worker.unref();
    this.idle = worker;
  }
}

/** One search's use of a worker thread, stoppable when the expression runs too long. */
export class RegexWorker {
  private readonly worker: Worker;
  private readonly deadline: number;
  private healthy = true;

  constructor(
    private readonly pool: RegexWorkerPool,
    private readonly source: string,
    private readonly flags: string,
    timeMs: number,
  ) {
    this.worker = pool.acquire();
    this.deadline = Date.now() + timeMs;
  }

  /** Matches `entries`, returning at most `limit` hits; rejects with {@link RegexTimeout}. */
  match(entries: readonly RegexEntry[], limit: number): Promise<RegexHit[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.healthy = false;
        void this.worker.terminate();
        reject(new RegexTimeout('The regular expression ran past its time budget'));
      }, Math.max(0, this.deadline - Date.now()));
      const onMessage = (hits: RegexHit[]): void => {
        cleanup();
        resolve(hits);
      };
      const onError = (error: Error): void => {
        cleanup();
        this.healthy = false;
        reject(error);
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.postMessage({ source: this.source, flags: this.flags, entries, limit });
    });
  }

  /** Hands the worker back to the pool, or stops it if it is no longer healthy. */
  close(): void {
    if (this.healthy) this.pool.release(this.worker);
    else void this.worker.terminate();
  }
}
