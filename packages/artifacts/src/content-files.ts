import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isArtifactId } from './artifact-id.js';

/**
 * Where an artifact's body lives: `<directory>/<id>`. Only well-formed ids reach here, so a
 * caller's text never becomes part of a path.
 */
export function contentPath(directory: string, id: string): string {
  if (!isArtifactId(id)) throw new Error(`Refusing to build a content path from a malformed artifact id.`);
  return join(directory, id);
}

/** Reads up to `length` bytes at `position` of an open file (fewer at its end). */
export function readAt(descriptor: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(Math.max(0, length));
  let filled = 0;
  while (filled < length) {
    const read = readSync(descriptor, buffer, filled, length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/** Runs `work` with the content file open for reading; undefined when the file is gone. */
export function withContentFile<T>(path: string, work: (descriptor: number) => T): T | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return work(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Removes a content file; a file already gone is fine. */
export function removeContentFile(path: string): void {
  rmSync(path, { force: true });
}
