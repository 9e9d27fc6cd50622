import { createHash, type Hash } from 'node:crypto';
import { closeSync, writeSync } from 'node:fs';
import type { AppendableArtifact, ArtifactReference } from '@clawsmith/tool-protocol';
import { ArtifactWriterClosedError } from './artifact-errors.js';
import type { ArtifactRecords } from './artifact-records.js';
import { LineIndexBuilder } from './line-index.js';

/** What an {@link OpenAppendable} needs from its store. */
export interface AppendableContext {
  readonly id: string;
  readonly mediaType: string;
  readonly descriptor: number;
  readonly records: ArtifactRecords;
  readonly lineIndexInterval: number;
  readonly now: () => number;
  /** Called once, when the writer ends (closed or failed). */
  readonly onEnd: () => void;
}

/**
 * An artifact that grows as output arrives. Each append goes to the content file at once and
 * then to the database; readers see bytes only up to the length the database records, so a
 * follower never reads past what the index covers. Appends that arrive while the database
 * write is in flight are committed together by the next write.
 */
export class OpenAppendable implements AppendableArtifact {
  private readonly index: LineIndexBuilder;
  private readonly hash: Hash = createHash('sha256');
  private committed: ArtifactReference;
  private dirty = false;
  private syncing: Promise<void> | undefined;
  private failure: unknown;
  private finalReference: Promise<ArtifactReference> | undefined;

  constructor(private readonly context: AppendableContext) {
    this.index = new LineIndexBuilder(context.lineIndexInterval);
    this.committed = { id: context.id, mediaType: context.mediaType, byteLength: 0, lineCount: 0 };
  }

  /** The artifact id. */
  get id(): string {
    return this.context.id;
  }

  reference(): ArtifactReference {
    return this.committed;
  }

  append(chunk: string | Uint8Array): Promise<void> {
    if (this.finalReference)
      return Promise.reject(new ArtifactWriterClosedError('This artifact was closed; open a new one to write more.'));
    if (this.failure !== undefined) return Promise.reject(this.failedError());
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.byteLength === 0) return this.syncing ?? Promise.resolve();
    try {
      let written = 0;
      while (written < bytes.byteLength) {
        written += writeSync(
          this.context.descriptor,
          bytes,
          written,
          bytes.byteLength - written,
          this.index.byteLength + written,
        );
      }
    } catch (error) {
      this.fail(error);
      return Promise.reject(this.failedError());
    }
    this.index.feed(bytes);
    this.hash.update(bytes);
    this.dirty = true;
    this.syncing ??= this.syncLoop();
    return this.syncing;
  }

  close(): Promise<ArtifactReference> {
    this.finalReference ??= this.finish();
    return this.finalReference;
  }

  private async finish(): Promise<ArtifactReference> {
    if (this.syncing) await this.syncing.catch(() => undefined);
    if (this.failure !== undefined) throw this.failedError();
    const sha256 = this.hash.digest('hex');
    try {
      const progress = {
        byteLength: this.index.byteLength,
        lineCount: this.index.lineCount,
        updatedAt: this.context.now(),
      };
      const stillThere = await this.context.records.advance(
        this.id,
        { ...progress, sha256, complete: true },
        this.index.takeMarks(),
      );
      if (!stillThere)
        throw new ArtifactWriterClosedError(
          'The artifact was deleted while it was being written (its session was deleted).',
        );
      this.committed = { ...this.committed, byteLength: progress.byteLength, lineCount: progress.lineCount, sha256 };
      return this.committed;
    } finally {
      this.release();
    }
  }

  private async syncLoop(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        const progress = {
          byteLength: this.index.byteLength,
          lineCount: this.index.lineCount,
          updatedAt: this.context.now(),
        };
        const stillThere = await this.context.records.advance(this.id, progress, this.index.takeMarks());
        if (!stillThere)
          throw new ArtifactWriterClosedError(
            'The artifact was deleted while it was being written (its session was deleted).',
          );
        this.committed = { ...this.committed, byteLength: progress.byteLength, lineCount: progress.lineCount };
      }
    } catch (error) {
      this.fail(error);
      throw this.failedError();
    } finally {
      this.syncing = undefined;
    }
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.release();
  }

  private failedError(): ArtifactWriterClosedError {
    if (ArtifactWriterClosedError.isInstance(this.failure) && this.failure.code === 'artifact_writer_closed') {
      return this.failure as ArtifactWriterClosedError;
    }
    return new ArtifactWriterClosedError(
      'Appending to the artifact failed; it keeps what was stored before. Open a new artifact to continue.',
      this.failure,
    );
  }

  private released = false;

  private release(): void {
    if (this.released) return;
    this.released = true;
    try {
      closeSync(this.context.descriptor);
    } finally {
      this.context.onEnd();
    }
  }
}
