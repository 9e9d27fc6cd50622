import { lstatSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { expectedFigures, identityOf } from './file-identity.js';

describe(expectedFigures, () => {
  it('gives the very figures lstat gives for that version of the file', () => {
    const root = testdir({ 'a.txt': 'a\n' });
    // Times the kernel gives a write (nanoseconds), and one before 1970 (negative seconds).
    for (const version of ['b\n', 'a longer body\n', '', 'before 1970']) {
      writeFileSync(join(root, 'a.txt'), version);
      if (version === 'before 1970') utimesSync(join(root, 'a.txt'), -1.5, -1.5);
      const plain = lstatSync(join(root, 'a.txt'));
      expect(expectedFigures(identityOf(lstatSync(join(root, 'a.txt'), { bigint: true })))).toEqual({
        device: plain.dev,
        inode: plain.ino,
        size: plain.size,
        mtimeMs: plain.mtimeMs,
      });
    }
  });
});
