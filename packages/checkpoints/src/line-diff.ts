// Line diff (Myers' O(ND) algorithm, shortest edit script) for manifest statistics and unified
// diffs. The trace keeps only V[-d..d] per step, O(D^2) memory; past `maxEdits` the differing
// middle is reported as wholly removed and re-added, an upper bound that stays cheap.

/** One step of an edit script: keep, remove or add one line. */
type Operation = '=' | '-' | '+';

const NO_NEWLINE = '\0';

/** Splits text into lines; a last line without a newline carries a marker so it compares unequal. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += NO_NEWLINE;
  return lines;
}

function myers(before: Int32Array, after: Int32Array, maxEdits: number): Operation[] | undefined {
  const n = before.length;
  const m = after.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= Math.min(max, maxEdits) && found < 0; d += 1) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && before[x] === after[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) found = d;
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  if (found < 0) return undefined;
  const operations: Operation[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d -= 1) {
    const previous = trace[d - 1]!;
    const at = (k: number) => previous[k + d - 1]!;
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      operations.push('=');
      x -= 1;
      y -= 1;
    }
    operations.push(previousK === k + 1 ? '+' : '-');
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    operations.push('=');
    x -= 1;
    y -= 1;
  }
  return operations.reverse();
}

/** The edit script turning `before` into `after`, line by line. */
export function editScript(before: readonly string[], after: readonly string[], maxEdits = 2000): Operation[] {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const ids = new Map<string, number>();
  const encode = (lines: readonly string[]) =>
    Int32Array.from(lines, (line) => {
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      return id;
    });
  const middleBefore = before.slice(prefix, before.length - suffix);
  const middleAfter = after.slice(prefix, after.length - suffix);
  const middle = myers(encode(middleBefore), encode(middleAfter), maxEdits) ?? [
    ...middleBefore.map((): Operation => '-'),
    ...middleAfter.map((): Operation => '+'),
  ];
  return [...new Array<Operation>(prefix).fill('='), ...middle, ...new Array<Operation>(suffix).fill('=')];
}

/** Lines added and removed between two texts. */
export function lineStats(before: string, after: string): { linesAdded: number; linesRemoved: number } {
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const operation of editScript(splitLines(before), splitLines(after))) {
    if (operation === '+') linesAdded += 1;
    else if (operation === '-') linesRemoved += 1;
  }
  return { linesAdded, linesRemoved };
}

function render(line: string, sign: string): string {
  return line.endsWith(NO_NEWLINE) ? `${sign}${line.slice(0, -1)}\n\\ No newline at end of file\n` : `${sign}${line}\n`;
}

/** Which sides of a diff exist: a created file has no before, a deleted one no after. */
export interface DiffSides {
  readonly beforeExists: boolean;
  readonly afterExists: boolean;
}

/**
 * A unified diff (3 lines of context) from `before` to `after`, labelled `a/path` and `b/path`,
 * or `/dev/null` for the side that does not exist (a created or deleted file), as git writes it.
 */
export function unifiedDiff(
  path: string,
  before: string,
  after: string,
  context = 3,
  sides: DiffSides = { beforeExists: true, afterExists: true },
): string {
  const beforeLines = splitLines(before);
  const afterLines = splitLines(after);
  const operations = editScript(beforeLines, afterLines);
  const positions: Array<[number, number]> = [];
  let beforeIndex = 0;
  let afterIndex = 0;
  for (const operation of operations) {
    positions.push([beforeIndex, afterIndex]);
    if (operation !== '+') beforeIndex += 1;
    if (operation !== '-') afterIndex += 1;
  }
  const changed = operations.flatMap((operation, index) => (operation === '=' ? [] : [index]));
  if (changed.length === 0) return '';
  let output = `--- ${sides.beforeExists ? `a/${path}` : '/dev/null'}\n+++ ${sides.afterExists ? `b/${path}` : '/dev/null'}\n`;
  let group = 0;
  while (group < changed.length) {
    let last = group;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * context + 1) last += 1;
    const start = Math.max(0, changed[group]! - context);
    const end = Math.min(operations.length, changed[last]! + context + 1);
    let beforeCount = 0;
    let afterCount = 0;
    let body = '';
    for (let index = start; index < end; index += 1) {
      const operation = operations[index]!;
      const [atBefore, atAfter] = positions[index]!;
      if (operation === '=') body += render(beforeLines[atBefore]!, ' ');
      else if (operation === '-') body += render(beforeLines[atBefore]!, '-');
      else body += render(afterLines[atAfter]!, '+');
      if (operation !== '+') beforeCount += 1;
      if (operation !== '-') afterCount += 1;
    }
    const [firstBefore, firstAfter] = positions[start]!;
    const beforeStart = beforeCount === 0 ? firstBefore : firstBefore + 1;
    const afterStart = afterCount === 0 ? firstAfter : firstAfter + 1;
    output += `@@ -${beforeStart},${beforeCount} +${afterStart},${afterCount} @@\n${body}`;
    group = last + 1;
  }
  return output;
}

/** Decodes UTF-8 text, or undefined for binary content (a NUL byte or invalid UTF-8). */
export function decodeText(content: Uint8Array): string | undefined {
  if (content.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return undefined;
  }
}
