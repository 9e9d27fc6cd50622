import { looksBinary } from './regular-file.js';
import { RegexWorker, type RegexBatchReply, type RegexWorkerPool } from './regex-worker.js';
import { closeSearchFile, openSearchFile, readSearchFile } from './search-read.js';
import type { SearchCoverage, SearchResult } from './search-report.js';
import type { WorkspaceLimits } from './workspace-limits.js';
import type { WalkedFile } from './workspace-walk.js';

/** A batch is sent once it holds this many bytes (or files); small enough to overlap reading and matching. */
const BATCH_BYTES = 128 * 1024;
const BATCH_FILES = 500;
/** Batches sent and not yet answered before reading waits for the oldest. */
const IN_FLIGHT = 2;

interface Batch {
  readonly buffer: ArrayBuffer;
  readonly bytes: Buffer;
  used: number;
  readonly paths: string[];
  readonly names: string[];
  readonly starts: number[];
  readonly lengths: number[];
  // Coverage of this batch, added to the report only once the worker has matched it.
  bytesRead: number;
  cutAtFileLimit: number;
  binaryFiles: number;
}

/**
 * The regular-expression side of `search_files`: files are read on this thread straight into a
 * batch buffer that is transferred (not copied) to the worker, which decodes and matches it
 * while this thread reads the next batch. Results are taken in batch order, so they are the same
 * as a one-file-at-a-time search; a file counts as searched only once the worker matched it.
 */
export class RegexSearch {
  /** Files read so far, matched or not: the file budget counts these. */
  filesRead = 0;
  /** Bytes read so far, matched or not: the byte budget counts these. */
  bytesRead = 0;
  private readonly worker: RegexWorker;
  private batch: Batch | undefined;
  private readonly sent: { batch: Batch; reply: Promise<RegexBatchReply> }[] = [];

  constructor(
    private readonly pool: RegexWorkerPool,
    private readonly bufferBytes: number,
    source: string,
    flags: string,
    private readonly limits: WorkspaceLimits,
    private readonly maxResults: number,
    private readonly results: SearchResult[],
    private readonly coverage: SearchCoverage,
  ) {
    this.worker = new RegexWorker(pool, source, flags, limits.searchRegexTimeMs);
  }

  /** Whether enough batches are in flight that the caller should {@link receive} before reading on. */
  get backlogged(): boolean {
    return this.sent.length >= IN_FLIGHT;
  }

  /** Reads one listed file into the current batch (a file that is not a regular file is left out). */
  add(file: WalkedFile): void {
    const opened = openSearchFile(file.absolute, this.coverage);
    if (opened === undefined) return;
    try {
      const wanted = Math.min(opened.size, this.limits.searchFileBytes, this.limits.searchBytes - this.bytesRead);
      if (this.batch && this.batch.used + wanted > this.bufferBytes) this.send();
      const batch = (this.batch ??= this.newBatch());
      const filled = readSearchFile(opened, batch.bytes, batch.used, wanted);
      this.filesRead += 1;
      this.bytesRead += filled;
      batch.bytesRead += filled;
      if (opened.size > filled && filled === this.limits.searchFileBytes) batch.cutAtFileLimit += 1;
      const binary = looksBinary(batch.bytes.subarray(batch.used, batch.used + filled));
      batch.paths.push(file.relative);
      batch.names.push(file.name);
      batch.starts.push(batch.used);
      batch.lengths.push(binary ? -1 : filled);
      if (binary) batch.binaryFiles += 1;
      else batch.used += filled;
    } catch {
      this.coverage.unreadable += 1;
    } finally {
      closeSearchFile(opened);
    }
    if (this.batch && (this.batch.used >= BATCH_BYTES || this.batch.paths.length >= BATCH_FILES)) this.send();
  }

  private newBatch(): Batch {
    const buffer = this.pool.takeBuffer();
    return {
      buffer,
      bytes: Buffer.from(buffer),
      used: 0,
      paths: [],
      names: [],
      starts: [],
      lengths: [],
      bytesRead: 0,
      cutAtFileLimit: 0,
      binaryFiles: 0,
    };
  }

  private send(): void {
    const batch = this.batch;
    this.batch = undefined;
    if (!batch || batch.paths.length === 0) {
      if (batch) this.pool.giveBuffer(batch.buffer);
      return;
    }
    const limit = this.maxResults - this.results.length;
    const reply = this.worker.match({
      buffer: batch.buffer,
      names: batch.names,
      starts: batch.starts,
      lengths: batch.lengths,
      limit,
    });
    this.sent.push({ batch, reply });
  }

  /**
   * Waits for the oldest batch in flight and takes its hits, setting the stop reason when the
   * result limit is reached. Rejects with `RegexTimeout` when the time budget ran out.
   */
  async receive(): Promise<void> {
    const oldest = this.sent.shift();
    if (!oldest) return;
    const { hits, buffer } = await oldest.reply;
    this.pool.giveBuffer(buffer);
    // A batch read ahead of a search that already has its results: matched, not counted.
    if (this.coverage.stopReason === 'results') return;
    const { batch } = oldest;
    this.coverage.filesSearched += batch.paths.length;
    this.coverage.bytesRead += batch.bytesRead;
    this.coverage.filesCutAtFileLimit += batch.cutAtFileLimit;
    this.coverage.binaryFiles += batch.binaryFiles;
    for (const hit of hits) {
      if (this.results.length >= this.maxResults) break;
      this.results.push({ path: batch.paths[hit.entry]!, line: hit.line, preview: hit.preview });
    }
    if (this.results.length >= this.maxResults) this.coverage.stopReason = 'results';
  }

  /** Sends what is left (unless the results are complete) and waits for every batch in flight. */
  async finish(): Promise<void> {
    if (this.coverage.stopReason !== 'results') this.send();
    while (this.sent.length > 0) await this.receive();
  }

  /** Returns the worker to the pool (or stops it when it failed or still has batches in flight). */
  close(): void {
    if (this.batch) this.pool.giveBuffer(this.batch.buffer);
    this.batch = undefined;
    this.worker.close();
  }
}
