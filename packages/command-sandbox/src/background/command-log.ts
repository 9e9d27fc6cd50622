import type { AppendableArtifact } from '@clawsmith/tool-protocol';

/** A slice of a command's output read from a byte offset. */
export interface CommandOutputSlice {
  /** The offset the returned bytes start at (later than asked when older bytes were dropped). */
  readonly offset: number;
  /** Pass this as `offset` next time. */
  readonly nextOffset: number;
  /** The bytes read, from `offset`. */
  readonly bytes: Buffer;
  /** Bytes between the asked offset and `offset` that memory no longer holds. */
  readonly droppedBytes: number;
}

/**
 * The output of a background command, addressed by absolute byte offsets. Memory keeps the first
 * `headBytes` and the last `retainBytes`; every chunk also goes to the appendable artifact when
 * one is open, so the complete log survives there.
 */
export class CommandLog {
  private head = Buffer.alloc(0);
  private chunks: Buffer[] = [];
  private retained = 0;
  /** Absolute offset of the first byte still in memory. */
  private start = 0;
  /** Bytes written in all. */
  totalBytes = 0;
  private pendingAppend: Promise<void> = Promise.resolve();
  private failure: string | undefined;

  constructor(
    private readonly retainBytes: number,
    readonly artifact?: AppendableArtifact,
    private readonly headBytes = 65_536,
  ) {}

  /** Adds a chunk in arrival order. */
  append(chunk: Buffer): void {
    if (this.head.length < this.headBytes)
      this.head = Buffer.concat([this.head, chunk.subarray(0, this.headBytes - this.head.length)]);
    this.chunks.push(chunk);
    this.retained += chunk.length;
    this.totalBytes += chunk.length;
    while (this.retained - (this.chunks[0]?.length ?? 0) >= this.retainBytes && this.chunks.length > 1) {
      const dropped = this.chunks.shift() as Buffer;
      this.retained -= dropped.length;
      this.start += dropped.length;
    }
    if (this.artifact && this.failure === undefined) {
      const artifact = this.artifact;
      this.pendingAppend = this.pendingAppend
        .then(() => (this.failure === undefined ? artifact.append(chunk) : undefined))
        .catch((error: unknown) => this.fail('appending to it failed', error));
    }
  }

  /** Reads at most `maxBytes` from `offset`. */
  read(offset: number, maxBytes: number): CommandOutputSlice {
    if (offset < this.head.length && offset < this.start) {
      const bytes = this.head.subarray(offset, Math.min(this.head.length, offset + maxBytes));
      return { offset, nextOffset: offset + bytes.length, bytes, droppedBytes: 0 };
    }
    const from = Math.min(Math.max(offset, this.start), this.totalBytes);
    const joined = Buffer.concat(this.chunks);
    const bytes = joined.subarray(from - this.start, Math.min(joined.length, from - this.start + maxBytes));
    return { offset: from, nextOffset: from + bytes.length, bytes, droppedBytes: Math.max(0, from - offset) };
  }

  /**
   * Why the artifact does not hold the whole log (appending or sealing it failed), or undefined.
   * The in-memory window is then all there is beyond what the artifact kept.
   */
  get artifactFailure(): string | undefined {
    return this.failure;
  }

  /** Waits for pending appends and seals the artifact; returns its final reference, or none when it failed. */
  async close() {
    await this.pendingAppend;
    if (!this.artifact || this.failure !== undefined) return undefined;
    try {
      return await this.artifact.close();
    } catch (error) {
      this.fail('sealing it failed', error);
      return undefined;
    }
  }

  private fail(what: string, error: unknown): void {
    if (this.failure !== undefined) return;
    const reason = error instanceof Error ? error.message : String(error);
    this.failure = `${what} after ${this.artifact?.reference().byteLength ?? 0} of ${this.totalBytes} bytes: ${reason}`;
  }
}
