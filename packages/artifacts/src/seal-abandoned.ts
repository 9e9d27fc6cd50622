import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, truncateSync } from 'node:fs';
import type { ArtifactRecord, ArtifactRecords } from './artifact-records.js';

const BLOCK = 1024 * 1024;

/**
 * Seals one artifact whose writer died: the body is cut to the length the database last
 * committed (anything after it was never visible to a reader) and the row becomes complete
 * with the hash of those bytes. False when the row was sealed or deleted meanwhile.
 */
export async function sealAbandonedArtifact(
  records: ArtifactRecords,
  path: string,
  record: ArtifactRecord,
  now: number,
): Promise<boolean> {
  const hash = createHash('sha256');
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const buffer = Buffer.alloc(Math.min(BLOCK, Math.max(1, record.byteLength)));
    for (let offset = 0; offset < record.byteLength;) {
      const read = readSync(descriptor, buffer, 0, Math.min(buffer.length, record.byteLength - offset), offset);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
      offset += read;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  try {
    truncateSync(path, record.byteLength);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return records.advance(
    record.id,
    {
      byteLength: record.byteLength,
      lineCount: record.lineCount,
      updatedAt: now,
      sha256: hash.digest('hex'),
      complete: true,
    },
    [],
  );
}
