/**
 * Merged command output bounded in memory: the first `headBytes` and the last `tailBytes` are
 * kept, the middle is counted and dropped. Optionally the complete log is kept too, up to
 * `logBytes`, for an artifact.
 */
export class BoundedOutput {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  private readonly log: Buffer[] = [];
  private logLength = 0;
  /** Bytes received in all. */
  totalBytes = 0;
  /** Whether the complete log stopped at `logBytes`. */
  logTruncated = false;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
    private readonly logBytes = 0,
  ) {}

  /** Adds a chunk in arrival order. */
  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    if (this.logBytes > 0 && !this.logTruncated) {
      const room = this.logBytes - this.logLength;
      const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.log.push(kept);
      this.logLength += kept.length;
      if (kept.length < chunk.length) this.logTruncated = true;
    }
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const taken = rest.subarray(0, this.headBytes - this.headLength);
      this.head.push(taken);
      this.headLength += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0 || this.tailBytes === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    if (this.tailLength > this.tailBytes * 2) this.compactTail();
  }

  private compactTail(): void {
    const joined = Buffer.concat(this.tail);
    const kept = joined.subarray(Math.max(0, joined.length - this.tailBytes));
    this.tail = [kept];
    this.tailLength = kept.length;
  }

  /** Whether bytes were left out between head and tail. */
  get truncated(): boolean {
    return this.totalBytes > this.headLength + Math.min(this.tailLength, this.tailBytes);
  }

  /** The kept text: head, a marker saying how much was left out, tail. */
  text(): string {
    this.compactTail();
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return head + tail;
    const omitted = this.totalBytes - this.headLength - this.tailLength;
    return `${head}\n… [${omitted} bytes of output left out; ${this.totalBytes} bytes in all] …\n${tail}`;
  }

  /** The complete log as kept (empty unless `logBytes` was set). */
  completeLog(): Buffer {
    return Buffer.concat(this.log);
  }
}
