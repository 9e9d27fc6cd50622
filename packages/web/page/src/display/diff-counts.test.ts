import { describe, expect, it } from 'vitest';
import { diffCounts, diffLineKinds } from './diff-counts';

describe(diffCounts, () => {
  it('counts a created file as many lines as it has, headers and the final newline left out', () => {
    expect(diffCounts('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,5 @@\n+1\n+2\n+3\n+4\n+5\n')).toEqual({
      added: 5,
      removed: 0,
    });
  });

  it('counts an added line that itself starts with ++ inside a hunk', () => {
    const diff = '--- a/x\n+++ b/x\n@@ -1,1 +1,2 @@\n-old\n+++ counter\n+new\n';
    expect(diffCounts(diff)).toEqual({ added: 2, removed: 1 });
    expect(diffLineKinds(diff.slice(0, -1).split('\n'))).toEqual([
      'file-header',
      'file-header',
      'hunk',
      'removed',
      'added',
      'added',
    ]);
  });

  it('counts a body without headers, as an edit display sends it', () => {
    expect(diffCounts('@@ -3,1 +3,2 @@\n-two\n+TWO\n+and more')).toEqual({ added: 2, removed: 1 });
  });
});
