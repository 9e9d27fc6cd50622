/**
 * Compares workspace-relative paths in the order `walkWorkspace` yields them: depth-first,
 * names in code-unit order within each folder (so "a/b" comes before "a-c", unlike a plain
 * string comparison).
 */
export function compareWalkOrder(left: string, right: string): number {
  let leftStart = 0;
  let rightStart = 0;
  for (;;) {
    let leftEnd = left.indexOf('/', leftStart);
    let rightEnd = right.indexOf('/', rightStart);
    if (leftEnd < 0) leftEnd = left.length;
    if (rightEnd < 0) rightEnd = right.length;
    const leftName = left.slice(leftStart, leftEnd);
    const rightName = right.slice(rightStart, rightEnd);
    if (leftName !== rightName) return leftName < rightName ? -1 : 1;
    const leftDone = leftEnd === left.length;
    const rightDone = rightEnd === right.length;
    if (leftDone || rightDone) return leftDone === rightDone ? 0 : leftDone ? -1 : 1;
    leftStart = leftEnd + 1;
    rightStart = rightEnd + 1;
  }
}

/** Whether `path` is `folder` or lies below it (`folder` '' is the whole workspace). */
export function isUnder(path: string, folder: string): boolean {
  return folder === '' || path === folder || (path.startsWith(folder) && path.charCodeAt(folder.length) === 47);
}

/**
 * The range [start, end) of `sorted` (walk order) holding the paths strictly below `folder`;
 * they are contiguous because the walk finishes a folder before it moves on.
 */
export function rangeUnder(sorted: readonly string[], folder: string): [number, number] {
  if (folder === '') return [0, sorted.length];
  const strictlyUnder = (path: string) => path !== folder && isUnder(path, folder);
  const below = (path: string) => compareWalkOrder(path, folder) <= 0 && !strictlyUnder(path);
  const upTo = (path: string) => below(path) || strictlyUnder(path);
  return [bound(sorted, below), bound(sorted, upTo)];
}

function bound(sorted: readonly string[], before: (path: string) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(sorted[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low;
}
