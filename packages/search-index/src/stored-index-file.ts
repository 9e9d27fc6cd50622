// The stored index on disk, written and read in the index thread (tens of megabytes, hashed whole).
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { STORED_INDEX_FORMAT, type IndexKey } from './stored-index.js';

const { magic: MAGIC, version: VERSION, headerBytes: HEADER_BYTES } = STORED_INDEX_FORMAT;

/** A section's bytes, in any typed-array view, or in pieces written one after another. */
export type SectionBytes = Float64Array | Uint32Array | Uint8Array | readonly (Uint32Array | Uint8Array)[];

/**
 * Lays the sections out 8-byte aligned after a JSON description of `description` and where each
 * section is, writes the file to a temporary name and renames it (a reader never sees half a
 * file); returns the bytes written. The sections are hashed and written where they are, never
 * copied into one body (a copy of tens of megabytes touches as many fresh pages).
 */
export function writeStoredIndex(
  path: string,
  description: Record<string, unknown>,
  sections: readonly (readonly [string, SectionBytes])[],
): number {
  const offsets: Record<string, [number, number]> = {};
  let position = 0;
  const pieces = sections.map(([, bytes]) => (Array.isArray(bytes) ? bytes : [bytes]) as SectionPiece[]);
  sections.forEach(([name], number) => {
    const length = pieces[number]!.reduce((sum, piece) => sum + piece.byteLength, 0);
    offsets[name] = [position, length];
    position += Math.ceil(length / 8) * 8;
  });
  const json = Buffer.from(JSON.stringify({ ...description, sections: offsets }), 'utf8');
  const descriptionBytes = Math.ceil((4 + json.length) / 8) * 8;
  const opening = Buffer.alloc(descriptionBytes);
  opening.writeUInt32LE(json.length, 0);
  json.copy(opening, 4);
  const padding = Buffer.alloc(8);
  const body: Buffer[] = [opening];
  sections.forEach(([name], number) => {
    for (const piece of pieces[number]!) body.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    const length = offsets[name]![1];
    const pad = Math.ceil(length / 8) * 8 - length;
    if (pad > 0) body.push(padding.subarray(0, pad));
  });
  const bodyLength = descriptionBytes + position;
  const hash = createHash('sha256');
  for (const piece of body) hash.update(piece);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(VERSION, 8);
  header.writeDoubleLE(bodyLength, 16);
  hash.digest().copy(header, 24);
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const descriptor = openSync(temporary, 'w', 0o600);
  try {
    for (const piece of [header, ...body]) {
      for (let written = 0; written < piece.length;) written += writeSync(descriptor, piece, written);
    }
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path);
  return HEADER_BYTES + bodyLength;
}

type SectionPiece = Float64Array | Uint32Array | Uint8Array;

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
