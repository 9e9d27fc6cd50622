/** How one line of a unified diff reads. */
export type DiffLineKind = 'file-header' | 'hunk' | 'added' | 'removed' | 'context';

/**
 * Classifies each line of a unified diff. `---`/`+++` are file headers only where a file's
 * header stands (before its first `@@`); inside a hunk, `+++x` is an added line `++x`, so it is
 * counted, as the checkpoint manifest counts it.
 */
export function diffLineKinds(lines: readonly string[]): DiffLineKind[] {
  return lines.map((line, index) => {
    if (line.startsWith('@@')) return 'hunk';
    if (diffOpensAt(lines, index) || (index > 0 && diffOpensAt(lines, index - 1))) return 'file-header';
    if (line.startsWith('+')) return 'added';
    if (line.startsWith('-')) return 'removed';
    return 'context';
  });
}

/** Whether a file's `---`/`+++` header starts at `index` (followed by a hunk or by nothing). */
function diffOpensAt(lines: readonly string[], index: number): boolean {
  const next = lines[index + 2];
  return (
    lines[index]!.startsWith('--- ') &&
    lines[index + 1]?.startsWith('+++ ') === true &&
    (next === undefined || next === '' || next.startsWith('@@'))
  );
}

/** Lines added and removed in a unified diff, headers left out. */
export function diffCounts(diff: string): { readonly added: number; readonly removed: number } {
  const kinds = diffLineKinds(diff.split('\n'));
  return {
    added: kinds.filter((kind) => kind === 'added').length,
    removed: kinds.filter((kind) => kind === 'removed').length,
  };
}
