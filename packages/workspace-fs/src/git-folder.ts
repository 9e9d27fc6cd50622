import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInsideFolder } from './path-boundary.js';

/** A folder that holds HEAD, objects/ and refs/ is a git folder, whatever its name (`.bare`, `repo.git`). */
function isGitFolder(path: string): boolean {
  try {
    return (
      statSync(join(path, 'HEAD')).isFile() &&
      statSync(join(path, 'objects')).isDirectory() &&
      statSync(join(path, 'refs')).isDirectory()
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
