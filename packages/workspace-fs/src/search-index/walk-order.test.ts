import { describe, expect, it } from 'vitest';
import { testdir } from '@clawsmith/test-utils';
import { FolderListings } from '../folder-listings.js';
import { newWalkCounts, walkWorkspace } from '../workspace-walk.js';
import { compareWalkOrder, rangeUnder } from '@clawsmith/search-index';

describe(compareWalkOrder, () => {
  it('sorts paths exactly as the workspace walk yields them', () => {
    const root = testdir({
      'a/b.txt': '',
      'a-c.txt': '',
      'a/z/y.txt': '',
      'a/a.txt': '',
      'B.txt': '',
      'a.b/c.txt': '',
      'ä.txt': '',
      'a/z.txt': '',
    });
    const walked = [
      ...walkWorkspace(
        { absolute: root, relative: '' },
        { skippedFolders: new Set(), listings: new FolderListings() },
        newWalkCounts(),
      ),
    ].map((file) => file.relative);
    expect([...walked].reverse().sort(compareWalkOrder)).toEqual(walked);
    expect(walked.slice(...rangeUnder(walked, 'a'))).toEqual(['a/a.txt', 'a/b.txt', 'a/z/y.txt', 'a/z.txt']);
    expect(walked.slice(...rangeUnder(walked, 'a/z'))).toEqual(['a/z/y.txt']);
    expect(walked.slice(...rangeUnder(walked, 'a/b.txt'))).toEqual([]);
  });
});
