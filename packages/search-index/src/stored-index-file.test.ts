import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { readStoredIndex, writeStoredIndex } from './stored-index-file.js';
import { STORED_INDEX_FORMAT } from './stored-index.js';

const key = { root: '/workspace', skippedFolders: ['node_modules'], fileLimit: 1 << 20 };

/** A stored index of one section in a temporary folder; its path. */
function storedIndex(): string {
  const path = join(testdir({}), 'index.bin');
  writeStoredIndex(path, { key }, [['trigrams', new Uint32Array([0x616263, 0x626364])]]);
  return path;
}

describe(readStoredIndex, () => {
  it('reads back what was written, with the same key', () => {
    const read = readStoredIndex(storedIndex(), key);
    expect('buffer' in read && read.buffer.byteLength).toBeGreaterThan(0);
  });

  // A format 3 file holds quadgram keys that format 4 neither writes nor queries, and a format 3
  // reader would require them of a format 4 file: a file of any other version is refused, so the
  // index is rebuilt.
  it.each([3, STORED_INDEX_FORMAT.version + 1])('refuses a file of format version %i, whole and intact', (version) => {
    const path = storedIndex();
    const bytes = readFileSync(path);
    bytes.writeUInt32LE(version, 8);
    writeFileSync(path, bytes);
    expect(readStoredIndex(path, key)).toEqual({ reason: `index format version ${version}` });
  });

  it('refuses a file built for another key', () => {
    expect(readStoredIndex(storedIndex(), { ...key, fileLimit: 1 << 10 })).toEqual({
      reason: 'index built for other settings',
    });
  });
});
