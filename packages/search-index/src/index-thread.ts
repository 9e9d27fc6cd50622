// The index thread's program. Walking, reading and indexing a whole workspace takes seconds, and
// loading and checking a stored index reads tens of megabytes, so none of it may run on the
// thread that answers tool calls. The same module runs the build's helper threads
// (`workerData.role` 'part'), started from this module's own URL.
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { buildIndex, type PartHelper } from './index-build.js';
import { indexPart, type IndexedPart } from './index-part.js';
import type { IndexReply, IndexThreadData, NumberedRequest, PartReply, PartRequest } from './index-thread-protocol.js';
import { sweepStoredIndex } from './index-sweep.js';
import { walkedFiles } from './index-walk.js';
import { readStoredIndex } from './stored-index-file.js';

const port = parentPort!;

function reasonOf(error: unknown): string {
  return String(error instanceof Error ? error.message : error);
}

// Starts a helper thread that indexes one part once asked (a fresh one per build: builds are rare).
function startHelper(): PartHelper {
  const data: IndexThreadData = { role: 'part' };
  const helper = new Worker(new URL(import.meta.url), { workerData: data });
  const outcome = new Promise<IndexedPart>((resolve, reject) => {
    helper.once('message', (reply: PartReply) => {
      void helper.terminate();
      if (reply.ok) resolve(reply.part);
      else reject(new Error(reply.reason));
    });
    helper.once('error', reject);
    helper.once('exit', (code) => reject(new Error(`an index helper thread stopped with code ${code}`)));
  });
  // A helper that fails before it is given a part is answered when it is given one.
  outcome.catch(() => undefined);
  return {
    index(request) {
      helper.postMessage(request);
      return outcome;
    },
    stop() {
      void helper.terminate();
    },
  };
}

function servePart(): void {
  port.once('message', (request: PartRequest) => {
    let reply: PartReply;
    try {
      reply = { ok: true, part: indexPart(walkedFiles(request.root, request.paths), request, request.shared) };
    } catch (error) {
      port.postMessage({ ok: false, reason: reasonOf(error) } satisfies PartReply);
      return;
    }
    const { part } = reply;
    const transfer = part.chunks.flatMap((chunk) => [
      chunk.trigramList.buffer,
      chunk.encoded.buffer,
      chunk.lastFiles.buffer,
    ]);
    port.postMessage(reply, transfer);
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

if ((workerData as IndexThreadData | undefined)?.role === 'part') servePart();
else serveRequests();
