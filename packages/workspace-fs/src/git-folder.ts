import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInsideFolder } from './path-boundary.js';

/** A folder that holds HEAD, objects/ and refs/ is a git folder, whatever its name (`.bare`, `repo.git`). */
function isGitFolder(path: string): boolean {
  // Asked of every parent of every written path: an absent HEAD must not throw (an exception
  // costs several times the stat).
  try {
    return (
      statSync(join(path, 'HEAD'), { throwIfNoEntry: false })?.isFile() === true &&
      statSync(join(path, 'objects'), { throwIfNoEntry: false })?.isDirectory() === true &&
      statSync(join(path, 'refs'), { throwIfNoEntry: false })?.isDirectory() === true
    );
  } catch {
    return false;
  }
}

/**
 * The git folder (workspace-relative) that `real` lies in, looking at its existing parents up to
 * the workspace root: a `.git` file's `gitdir: ./.bare` makes `.bare` as dangerous as `.git`.
 */
export function enclosingGitFolder(root: string, real: string): string | undefined {
  for (let folder = dirname(real); isInsideFolder(root, folder) && folder !== root; folder = dirname(folder)) {
    if (isGitFolder(folder)) return folder.slice(root.length + 1);
  }
  return isGitFolder(root) ? '.' : undefined;
}
