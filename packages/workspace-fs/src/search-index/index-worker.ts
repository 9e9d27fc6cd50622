import { Worker } from 'node:worker_threads';
import { INDEX_WORKER_SOURCE } from './index-worker-source.js';

interface Pending {
  resolve(reply: Record<string, unknown>): void;
  reject(error: Error): void;
}

/**
 * The index worker thread, shared by every workspace index of one tool set: started on first
 * use and never referenced, so a process that is done exits even in the middle of a build (the
 * stored index is written to a temporary file and renamed, so nothing half-written remains).
 */
export class IndexWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private waitedFor = 0;

  /**
   * Sends a request; resolves with the worker's answer, rejects if the worker fails. With
   * `waited`, a tool call is waiting for the answer, so the thread keeps the process alive until
   * it comes (background work never does).
   */
  request<T extends Record<string, unknown>>(message: Record<string, unknown>, waited = false): Promise<T> {
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
    const worker = new Worker(INDEX_WORKER_SOURCE, { eval: true, workerData: { source: INDEX_WORKER_SOURCE } });
    worker.on('message', (reply: { id: number; ok: boolean; reason?: string }) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (!pending) return;
      if (reply.ok) pending.resolve(reply);
      else pending.reject(new Error(reply.reason ?? 'the index worker failed'));
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
