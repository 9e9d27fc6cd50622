// The stored index on disk, written and read in the index thread (tens of megabytes, hashed whole).
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, write, writeSync } from 'node:fs';
import { STORED_INDEX_FORMAT, type IndexKey } from './stored-index.js';

const { magic: MAGIC, version: VERSION, headerBytes: HEADER_BYTES } = STORED_INDEX_FORMAT;

/** A section's bytes, in any typed-array view. */
export type SectionBytes = Float64Array | Uint32Array | Uint8Array;

/** A named section of the body. */
export type Section = readonly [string, SectionBytes];

// Every number in a description bound is taken to be at most this long when written.
const WIDEST_NUMBER = Number.MAX_SAFE_INTEGER;

/**
 * A stored index written while its build goes on: a 64-byte header, the JSON description padded
 * to 8 bytes, the sections, each 8-byte aligned (the layout `parseStoredIndex` reads). Room for
 * the description is reserved up front (its JSON is padded with spaces, which a JSON parse
 * ignores): the sections whose sizes are known before the join come first,
 * then the joined posting lists, whose bytes are written as the join finishes them (by the libuv
 * pool, on a core the join does not use), then the rest. Writing 60 MiB after the join took
 * 0.7-1.1 s of a build; the header, with the SHA-256 of the body, is written last. A writer is
 * either finished or discarded (the temporary file is removed).
 */
export class StoredIndexWriter {
  private readonly temporary: string;
  private readonly descriptor: number;
  private readonly reserved: number;
  /** Body offset of the growing section. */
  private readonly growingAt: number;
  /** Bytes of the growing section handed to the pool so far. */
  private handedOn = 0;
  private readonly writes: Promise<void>[] = [];
  private closed = false;

  /**
   * Opens a temporary file beside `path`. `descriptionBound` holds the final description's keys
   * with numbers at least as long when written as the final ones (or `Number.MAX_SAFE_INTEGER`);
   * `sectionNames` names every section that `finish` will be given, in order.
   */
  constructor(
    private readonly path: string,
    descriptionBound: Record<string, unknown>,
    private readonly sectionNames: readonly string[],
    private readonly early: readonly Section[],
  ) {
    const widest: Record<string, [number, number]> = {};
    for (const name of sectionNames) widest[name] = [WIDEST_NUMBER, WIDEST_NUMBER];
    const bound = Buffer.byteLength(JSON.stringify({ ...descriptionBound, sections: widest }), 'utf8');
    this.reserved = Math.ceil((4 + bound) / 8) * 8;
    this.growingAt = this.reserved + early.reduce((sum, [, bytes]) => sum + padded(bytes.byteLength), 0);
    this.temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    this.descriptor = openSync(this.temporary, 'w', 0o600);
  }

  /**
   * Hands `bytes[from, to)` of the growing section to the pool to write; `bytes` must stay
   * unchanged (and its memory ungrown) until `finish` or `discard` has returned.
   */
  writeGrowing(bytes: Uint8Array, from: number, to: number): void {
    if (from !== this.handedOn || to < from) throw new Error('growing section bytes handed on out of order');
    this.handedOn = to;
    this.writes.push(writeAt(this.descriptor, bytes.subarray(from, to), HEADER_BYTES + this.growingAt + from));
  }

  /**
   * Writes the rest: the early sections, what is left of `growing` (all of it from the first
   * byte not yet handed on), the `late` sections, the description and the header; waits for the
   * pool's writes, renames the file over `path` and returns the bytes written.
   */
  async finish(description: Record<string, unknown>, growing: Section, late: readonly Section[]): Promise<number> {
    try {
      return await this.writeRest(description, growing, late);
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  private async writeRest(
    description: Record<string, unknown>,
    growing: Section,
    late: readonly Section[],
  ): Promise<number> {
    const sections = [...this.early, growing, ...late];
    if (sections.map(([name]) => name).join('\0') !== this.sectionNames.join('\0')) {
      throw new Error('stored index sections differ from the ones planned');
    }
    const offsets: Record<string, [number, number]> = {};
    let position = 0;
    for (const [name, bytes] of sections) {
      offsets[name] = [position, bytes.byteLength];
      position += padded(bytes.byteLength);
    }
    const json = Buffer.from(JSON.stringify({ ...description, sections: offsets }), 'utf8');
    if (4 + json.length > this.reserved) throw new Error('stored index description longer than its reserved room');
    const opening = Buffer.alloc(this.reserved, 0x20);
    opening.writeUInt32LE(this.reserved - 4, 0);
    json.copy(opening, 4);
    const body: Buffer[] = [opening];
    const pieces: (readonly [Buffer, number])[] = [[opening, 0]];
    let at = this.reserved;
    for (const [name, bytes] of sections) {
      const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      body.push(view);
      // The growing section's bytes already handed on are being written by the pool.
      const skip = name === growing[0] ? Math.min(this.handedOn, view.length) : 0;
      if (skip < view.length) pieces.push([view.subarray(skip), at + skip]);
      const pad = padded(bytes.byteLength) - bytes.byteLength;
      if (pad > 0) {
        body.push(PADDING.subarray(0, pad));
        pieces.push([PADDING.subarray(0, pad), at + bytes.byteLength]);
      }
      at += padded(bytes.byteLength);
    }
    const hash = createHash('sha256');
    for (const piece of body) hash.update(piece);
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(MAGIC, 0, 'latin1');
    header.writeUInt32LE(VERSION, 8);
    header.writeDoubleLE(at, 16);
    hash.digest().copy(header, 24);
    for (const [piece, offset] of pieces) writeFullyAt(this.descriptor, piece, HEADER_BYTES + offset);
    writeFullyAt(this.descriptor, header, 0);
    await this.settle();
    renameSync(this.temporary, this.path);
    return HEADER_BYTES + at;
  }

  /** Waits for the pool's writes, closes and removes the temporary file (a build that failed). */
  async discard(): Promise<void> {
    await Promise.allSettled(this.writes);
    if (!this.closed) {
      this.closed = true;
      closeSync(this.descriptor);
    }
    rmSync(this.temporary, { force: true });
  }

  // Waits for the pool's writes (throwing the first failure) and closes the file.
  private async settle(): Promise<void> {
    const outcomes = await Promise.allSettled(this.writes);
    this.closed = true;
    closeSync(this.descriptor);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

const PADDING = Buffer.alloc(8);

function padded(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}

function writeFullyAt(descriptor: number, bytes: Buffer, position: number): void {
  for (let written = 0; written < bytes.length;) {
    written += writeSync(descriptor, bytes, written, bytes.length - written, position + written);
  }
}

// Writes all of `bytes` at `position` in the libuv pool (a short write is continued).
async function writeAt(descriptor: number, bytes: Uint8Array, position: number): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    const { bytesWritten } = await new Promise<{ bytesWritten: number }>((resolve, reject) => {
      write(descriptor, bytes, written, bytes.length - written, position + written, (error, count) =>
        error ? reject(error) : resolve({ bytesWritten: count }),
      );
    });
    written += bytesWritten;
  }
}

/** A checked body (its own `ArrayBuffer`, to transfer), or why there is none. */
export type StoredIndexRead = { readonly buffer: ArrayBuffer } | { readonly reason: string; readonly missing?: true };

/**
 * Reads the stored index and checks it whole: magic, version, length, SHA-256 of the body, and
 * the key (workspace, skipped folders, per-file limit). Anything else is refused, never trusted.
 * The body is read straight into the buffer it is returned in: a whole-file read and a copy
 * touched twice the pages (a fresh page costs tens of microseconds on a virtual machine).
 */
export function readStoredIndex(path: string, key: IndexKey): StoredIndexRead {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return { missing: true, reason: 'no stored index' };
  }
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const headerRead = readFully(descriptor, header, 0);
    if (headerRead < HEADER_BYTES || header.toString('latin1', 0, 8) !== MAGIC) return { reason: 'not an index file' };
    if (header.readUInt32LE(8) !== VERSION) return { reason: `index format version ${header.readUInt32LE(8)}` };
    const bodyLength = header.readDoubleLE(16);
    if (bodyLength !== fstatSync(descriptor).size - HEADER_BYTES) return { reason: 'truncated or extended index file' };
    const copy = new ArrayBuffer(bodyLength);
    const body = Buffer.from(copy);
    // A file that grew or shrank since the fstat reads short or long: checked again here.
    if (
      readFully(descriptor, body, HEADER_BYTES) !== bodyLength ||
      readSync(descriptor, header, 0, 1, HEADER_BYTES + bodyLength) !== 0
    ) {
      return { reason: 'truncated or extended index file' };
    }
    if (!createHash('sha256').update(body).digest().equals(header.subarray(24, 56))) {
      return { reason: 'index checksum mismatch' };
    }
    const descriptionLength = body.readUInt32LE(0);
    const description = JSON.parse(body.toString('utf8', 4, 4 + descriptionLength)) as { key?: unknown };
    if (JSON.stringify(description.key) !== JSON.stringify(key)) return { reason: 'index built for other settings' };
    return { buffer: copy };
  } catch {
    return { missing: true, reason: 'no stored index' };
  } finally {
    closeSync(descriptor);
  }
}

// Reads into `target` from file position `position` until it is full or the file ends; returns the bytes read.
function readFully(descriptor: number, target: Buffer, position: number): number {
  let filled = 0;
  while (filled < target.length) {
    const read = readSync(descriptor, target, filled, target.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}
