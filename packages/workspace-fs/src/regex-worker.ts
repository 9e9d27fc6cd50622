import { Worker } from 'node:worker_threads';
import { canPrefilterWholeText } from './regex-prefilter.js';
import { threadModuleUrl } from '@clawsmith/platform';

/**
 * One batch of files handed to the regular-expression worker: the raw bytes of every file read
 * into one `ArrayBuffer` that is transferred (not copied) to the worker and back, and for each
 * file its name, where its bytes start and how many there are (-1: content not searched).
 */
export interface RegexBatchMessage {
  readonly buffer: ArrayBuffer;
  readonly names: readonly string[];
  readonly starts: readonly number[];
  readonly lengths: readonly number[];
  /** Hits to find at most. */
  readonly limit: number;
}

/** A match the worker found: `line` 0 means the file name matched. */
export interface RegexHit {
  readonly entry: number;
  readonly line: number;
  readonly preview: string;
}

/** The worker's answer to one batch: its hits, and the batch's buffer handed back for reuse. */
export interface RegexBatchReply {
  readonly hits: RegexHit[];
  readonly buffer: ArrayBuffer;
}

/** What the thread receives: one batch and the expression to match it with. */
export interface RegexThreadRequest extends RegexBatchMessage {
  readonly source: string;
  readonly flags: string;
  /** Whether the whole-text search may pick candidate lines (see `canPrefilterWholeText`). */
  readonly prefilter: boolean;
}

/** Thrown by {@link RegexWorker.match} when the time budget ran out; the worker is gone. */
export class RegexTimeout extends Error {}

/**
 * Keeps one idle worker thread between searches (starting one costs tens of milliseconds), and
 * unreferenced, so an idle worker never keeps the process alive. Each search takes a worker
 * for itself; a worker stopped for running too long is never returned. Also keeps a few batch
 * buffers, so a search does not fault in fresh pages for every batch.
 */
export class RegexWorkerPool {
  private idle: Worker | undefined;
  private readonly buffers: ArrayBuffer[] = [];

  constructor(private readonly bufferBytes: number) {}

  /** A worker for one search: the idle one, or a new one. */
  acquire(): Worker {
    const worker = this.idle ?? this.start();
    this.idle = undefined;
    worker.ref();
    return worker;
  }

  private start(): Worker {
    const worker = new Worker(threadModuleUrl('regex-thread', import.meta.url));
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

  /** A batch buffer of `bufferBytes`: a kept one, or a new one. */
  takeBuffer(): ArrayBuffer {
    return this.buffers.pop() ?? new ArrayBuffer(this.bufferBytes);
  }

  /** Keeps a batch buffer the worker handed back (at most three are kept). */
  giveBuffer(buffer: ArrayBuffer): void {
    if (buffer.byteLength === this.bufferBytes && this.buffers.length < 3) this.buffers.push(buffer);
  }
}

interface Pending {
  resolve(reply: RegexBatchReply): void;
  reject(error: Error): void;
}

/**
 * One search's use of a worker thread, stoppable when the expression runs too long. Several
 * batches may be in flight; the worker answers them in order. The time budget covers the whole
 * search: when it runs out the worker is terminated and every pending batch rejects with
 * {@link RegexTimeout}.
 */
export class RegexWorker {
  private readonly worker: Worker;
  private readonly pending: Pending[] = [];
  private readonly timer: NodeJS.Timeout;
  private failure: Error | undefined;
  private readonly prefilter: boolean;

  constructor(
    private readonly pool: RegexWorkerPool,
    private readonly source: string,
    private readonly flags: string,
    timeMs: number,
  ) {
    this.prefilter = canPrefilterWholeText(source);
    this.worker = pool.acquire();
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    this.timer = setTimeout(
      () => this.fail(new RegexTimeout('The regular expression ran past its time budget')),
      timeMs,
    );
  }

  private readonly onMessage = (reply: RegexBatchReply): void => {
    this.pending.shift()?.resolve(reply);
  };

  private readonly onError = (error: Error): void => {
    this.fail(error);
  };

  private readonly onExit = (): void => {
    this.fail(new Error('The regular-expression worker thread stopped unexpectedly; search again.'));
  };

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.detach();
    void this.worker.terminate();
    for (const pending of this.pending.splice(0)) pending.reject(error);
  }

  private detach(): void {
    clearTimeout(this.timer);
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
  }

  /** Number of batches sent and not yet answered. */
  get inFlight(): number {
    return this.pending.length;
  }

  /**
   * Sends a batch (its buffer is transferred, so the caller must not touch it any more) and
   * resolves with the worker's hits; rejects with {@link RegexTimeout} once the budget ran out.
   */
  match(batch: RegexBatchMessage): Promise<RegexBatchReply> {
    if (this.failure) return Promise.reject(this.failure);
    const reply = new Promise<RegexBatchReply>((resolve, reject) => {
      this.pending.push({ resolve, reject });
    });
    // A batch the search no longer awaits (it stopped or failed first) must not become an
    // unhandled rejection; an awaiting caller still sees the rejection.
    reply.catch(() => undefined);
    try {
      const request: RegexThreadRequest = {
        source: this.source,
        flags: this.flags,
        prefilter: this.prefilter,
        ...batch,
      };
      this.worker.postMessage(request, [batch.buffer]);
    } catch (error) {
      this.fail(error as Error);
    }
    return reply;
  }

  /**
   * Hands the worker back to the pool, or stops it if it failed or still has batches in
   * flight (their answers would otherwise reach the next search).
   */
  close(): void {
    if (this.failure) return;
    this.detach();
    if (this.pending.length === 0) this.pool.release(this.worker);
    else void this.worker.terminate();
    this.pending.length = 0;
  }
}
