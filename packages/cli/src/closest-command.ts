/** Edit distance between two short words (insertions, deletions, substitutions). */
function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      current[column] = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
    }
    previous = current;
  }
  return previous[right.length]!;
}

/** The command name closest to a mistyped `word` (at most 2 edits away, or a prefix), if any. */
export function closestCommand(word: string, names: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = name.startsWith(typed) || typed.startsWith(name) ? 1 : editDistance(typed, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
