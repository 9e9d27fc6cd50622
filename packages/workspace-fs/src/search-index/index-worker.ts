import { Worker } from 'node:worker_threads';
import { INDEX_WORKER_SOURCE } from './index-worker-source.js';

interface Pending {
  resolve(reply: Record<string, unknown>): void;
  reject(error: Error): void;
}

/**
 * The index worker thread, shared by every workspace index of one tool set: started on first
 * use, unreferenced while idle (it never keeps the process alive), requests answered in order.
 */
export class IndexWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** Sends a request; resolves with the worker's answer, rejects if the worker fails. */
  request<T extends Record<string, unknown>>(message: Record<string, unknown>): Promise<T> {
    const worker = this.ensure();
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject });
    });
    worker.ref();
    worker.postMessage({ ...message, id });
    return reply;
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(INDEX_WORKER_SOURCE, { eval: true });
    worker.on('message', (reply: { id: number; ok: boolean; reason?: string }) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
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
