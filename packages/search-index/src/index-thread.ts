// The index thread's program. Walking, reading and indexing a whole workspace takes seconds, and
// loading and checking a stored index reads tens of megabytes, so none of it may run on the
// thread that answers tool calls. The same module runs the build's helper threads
// (`workerData.role` 'part'), started from this module's own URL.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { buildIndex, type PartHelper } from './index-build.js';
import { indexPart, type IndexedPart } from './index-part.js';
import type {
  IndexReply,
  IndexThreadData,
  JoinReply,
  JoinRequest,
  NumberedRequest,
  PartReply,
  PartRequest,
} from './index-thread-protocol.js';
import { sweepStoredIndex } from './index-sweep.js';
import { walkedFiles } from './index-walk.js';
import { PartScanner } from './part-scanner.js';
import { mergeChunks, type MergedPostings } from './posting-merge.js';
import { readStoredIndex } from './stored-index-file.js';
import { adoptCompiledModules, compiledModules } from './wasm-modules.js';

const port = parentPort!;

function reasonOf(error: unknown): string {
  return String(error instanceof Error ? error.message : error);
}

// Starts a helper thread that indexes one part and then joins a range of keys once asked (a fresh
// one per build: builds are rare).
function startHelper(): PartHelper {
  const data: IndexThreadData = { role: 'part', modules: compiledModules() };
  const helper = new Worker(new URL(import.meta.url), { workerData: data });
  // The helper's answers in order; a failure (or an exit) fails whatever is still unanswered.
  const waiting: { resolve(reply: PartReply | JoinReply): void; reject(error: Error): void }[] = [];
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const next of waiting.splice(0)) next.reject(failure);
  };
  helper.on('message', (reply: PartReply | JoinReply) => waiting.shift()?.resolve(reply));
  helper.once('error', fail);
  helper.once('exit', (code) => fail(new Error(`an index helper thread stopped with code ${code}`)));
  const ask = <Reply extends PartReply | JoinReply>(request: PartRequest | JoinRequest): Promise<Reply> => {
    if (failure) return Promise.reject(failure);
    const reply = new Promise<Reply>((resolve, reject) => {
      waiting.push({ resolve: resolve as (reply: PartReply | JoinReply) => void, reject });
    });
    helper.postMessage(request);
    return reply;
  };
  return {
    async index(request) {
      const reply = await ask<PartReply>(request);
      if (!reply.ok) throw new Error(reply.reason);
      return reply.part;
    },
    async join(request) {
      const reply = await ask<JoinReply>(request);
      if (!reply.ok) throw new Error(reply.reason);
      return reply.joined;
    },
    stop() {
      void helper.terminate();
    },
  };
}

function servePart(): void {
  port.once('message', (request: PartRequest) => {
    let part: IndexedPart;
    const scanner = new PartScanner(request.fileLimit);
    try {
      part = indexPart(walkedFiles(request.root, request.paths), request, request.shared, scanner);
    } catch (error) {
      port.postMessage({ ok: false, reason: reasonOf(error) } satisfies PartReply);
      return;
    }
    // The chunks are in SharedArrayBuffers: the index thread reads them where they are.
    port.postMessage({ ok: true, part } satisfies PartReply);
    port.once('message', ({ chunks, range }: JoinRequest) => {
      let joined: MergedPostings;
      try {
        // In the scanner's memory, whose pages the part touched, shared: read where it is.
        joined = mergeChunks(chunks, (bytes) => scanner.spareMemory(bytes), range);
      } catch (error) {
        port.postMessage({ ok: false, reason: reasonOf(error) } satisfies JoinReply);
        return;
      }
      port.postMessage({ ok: true, joined } satisfies JoinReply);
    });
  });
}

async function answer(request: NumberedRequest): Promise<void> {
  const { id } = request;
  try {
    if (request.type === 'build') {
      const stats = await buildIndex(request, startHelper);
      port.postMessage({ id, ok: true, stats } satisfies IndexReply);
    } else if (request.type === 'load') {
      const read = readStoredIndex(request.path, request.key);
      port.postMessage({ id, ok: true, ...read } satisfies IndexReply, 'buffer' in read ? [read.buffer] : []);
    } else {
      port.postMessage({ id, ok: true, changed: sweepStoredIndex(request) } satisfies IndexReply);
    }
  } catch (error) {
    port.postMessage({ id, ok: false, reason: reasonOf(error) } satisfies IndexReply);
  }
}

function serveRequests(): void {
  // One request at a time, in order, as when a build ran without awaiting anything.
  let queue = Promise.resolve();
  port.on('message', (request: NumberedRequest) => {
    queue = queue.then(() => answer(request));
  });
}

const data = workerData as IndexThreadData | undefined;
if (data?.role === 'part') {
  if (data.modules) adoptCompiledModules(data.modules);
  servePart();
} else serveRequests();
