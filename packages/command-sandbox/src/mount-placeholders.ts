import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';

// How many running sandboxes of this process use each placeholder: removing a mount point on the
// host while another sandbox still has it mounted would drop that sandbox's guard.
const users = new Map<string, number>();

/**
 * Marks the placeholders one more sandbox uses; returns the function that ends that use. They are
 * the ones its plan `made` (absent paths) and, among the protected paths it `bound` as existing,
 * those that are another running sandbox's placeholders: removing one of those when the other
 * ends would make this sandbox's start fail or drop its guard.
 */
export function holdPlaceholders(made: readonly string[], bound: readonly string[] = []): () => void {
  const paths = [...made, ...bound.filter((path) => users.has(path) && !made.includes(path))];
  for (const path of paths) users.set(path, (users.get(path) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const path of paths) {
      const remaining = (users.get(path) ?? 1) - 1;
      if (remaining > 0) {
        users.set(path, remaining);
        continue;
      }
      users.delete(path);
      removeIfEmpty(path);
    }
  };
}

/** Removes the empty folder or empty file bubblewrap left as a mount point; anything else stays. */
function removeIfEmpty(path: string): void {
  try {
    const stats = lstatSync(path);
    if (stats.isDirectory()) rmdirSync(path);
    else if (stats.isFile() && stats.size === 0) unlinkSync(path);
  } catch {
    // Not empty (someone wrote there after the run) or already gone: keep what is there.
  }
}
