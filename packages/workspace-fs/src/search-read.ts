import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { SearchCoverage } from './search-report.js';

// O_NOFOLLOW: a listed file swapped for a symlink is not followed. O_NONBLOCK: a FIFO swapped in
// opens at once instead of waiting for a writer; fstat then passes it over.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A listed file opened for searching: its descriptor and size when opened. */
export interface OpenSearchFile {
  readonly descriptor: number;
  readonly size: number;
}

/**
 * Opens a listed file for a search, never following a symlink and never blocking on a FIFO.
 * Undefined when it cannot be opened (counted as unreadable) or is not a regular file (counted
 * as passed over); the caller closes the descriptor with {@link closeSearchFile}.
 */
export function openSearchFile(path: string, coverage: SearchCoverage): OpenSearchFile | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, OPEN_FLAGS);
  } catch {
    coverage.unreadable += 1;
    return undefined;
  }
  try {
    const stats = fstatSync(descriptor);
    if (stats.isFile()) return { descriptor, size: stats.size };
    coverage.passedOver += 1;
  } catch {
    coverage.unreadable += 1;
  }
  closeSync(descriptor);
  return undefined;
}

/** Reads up to `wanted` bytes from the start of the file into `buffer` at `offset`; returns how many. */
export function readSearchFile(file: OpenSearchFile, buffer: Uint8Array, offset: number, wanted: number): number {
  let filled = 0;
  while (filled < wanted) {
    const count = readSync(file.descriptor, buffer, offset + filled, wanted - filled, filled);
    if (count === 0) break;
    filled += count;
  }
  return filled;
}

/** Closes a file opened by {@link openSearchFile}. */
export function closeSearchFile(file: OpenSearchFile): void {
  closeSync(file.descriptor);
}
