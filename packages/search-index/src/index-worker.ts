import { Worker } from 'node:worker_threads';
import { threadModuleUrl } from '@clawsmith/platform';
import type {
  BuildRequest,
  IndexAnswers,
  IndexReply,
  IndexRequest,
  IndexThreadData,
  LoadRequest,
  SweepRequest,
} from './index-thread-protocol.js';

interface Pending {
  resolve(reply: IndexReply): void;
  reject(error: Error): void;
}

/** An answer as the thread sent it: the request's answer with its `id` and `ok`. */
export type IndexAnswer<Type extends IndexRequest['type']> = IndexAnswers[Type] & { readonly id: number; ok: true };

/**
 * The index worker thread (index-thread.ts), shared by every workspace index of one tool set:
 * started on first use and never referenced, so a process that is done exits even in the middle
 * of a build (the stored index is written to a temporary file and renamed, so nothing
 * half-written remains).
 */
export class IndexWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private waitedFor = 0;

  /** Builds and writes a stored index. */
  build(request: Omit<BuildRequest, 'type'>): Promise<IndexAnswer<'build'>> {
    return this.request({ type: 'build', ...request });
  }

  /** Reads and checks a stored index. */
  load(request: Omit<LoadRequest, 'type'>): Promise<IndexAnswer<'load'>> {
    return this.request({ type: 'load', ...request });
  }

  /** Compares a stored index with the disk; see {@link IndexWorker.request} for `waited`. */
  sweep(request: Omit<SweepRequest, 'type'>, waited = false): Promise<IndexAnswer<'sweep'>> {
    return this.request({ type: 'sweep', ...request }, waited);
  }

  /**
   * Sends a request; resolves with the worker's answer (typed by the caller: use the methods
   * above for answers typed by the request), rejects if the worker fails. With `waited`, a tool
   * call is waiting for the answer, so the thread keeps the process alive until it comes
   * (background work never does).
   */
  request<T>(message: IndexRequest, waited = false): Promise<T> {
    const worker = this.ensure();
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject });
    });
    if (waited && this.waitedFor++ === 0) worker.ref();
    worker.postMessage({ ...message, id });
    if (!waited) return reply;
    return reply.finally(() => {
      if (--this.waitedFor === 0) this.worker?.unref();
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const data: IndexThreadData = { role: 'index' };
    const worker = new Worker(threadModuleUrl('index-thread', import.meta.url), { workerData: data });
    worker.on('message', (reply: IndexReply) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!pending) return;
      if (reply.ok) pending.resolve(reply);
      else pending.reject(new Error(reply.reason));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('The index worker thread stopped')));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Stops the thread (pending requests reject). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}
