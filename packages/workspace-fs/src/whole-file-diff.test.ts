import { describe, expect, it } from 'vitest';
import { wholeFileDiff } from './whole-file-diff.js';

const counted = (diff: string, sign: '+' | '-') =>
  diff.split('\n').filter((line) => line.startsWith(sign) && !line.startsWith(`${sign}${sign}${sign} `)).length;

describe(wholeFileDiff, () => {
  it('heads a created file with /dev/null and adds one line per line of the file', () => {
    const diff = wholeFileDiff('new.txt', 'one\ntwo\nthree\nfour\nfive\n', 'created');
    expect(diff).toBe('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,5 @@\n+one\n+two\n+three\n+four\n+five\n');
    expect(counted(diff, '+')).toBe(5);
  });

  it('heads a deleted file with /dev/null after it and marks a last line without a newline', () => {
    expect(wholeFileDiff('gone.txt', 'bye\nnow', 'deleted')).toBe(
      '--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n\\ No newline at end of file\n',
    );
  });

  it('has no hunk for an empty file', () => {
    expect(wholeFileDiff('empty.txt', '', 'created')).toBe('--- /dev/null\n+++ b/empty.txt\n');
  });
});
