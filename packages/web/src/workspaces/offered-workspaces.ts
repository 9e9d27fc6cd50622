import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { ClawsmithError } from '@clawsmith/tool-protocol';

/**
 * The folders a server offers for new sessions, as real paths, without duplicates. A folder that
 * is relative, missing or not a directory stops the start (`invalid_workspace`): the page must
 * never offer a folder that is not there.
 */
export function offeredWorkspaces(folders: readonly string[]): readonly string[] {
  const real = new Set<string>();
  for (const folder of folders) {
    if (!isAbsolute(folder))
      throw new ClawsmithError(
        'invalid_workspace',
        `The workspace ${folder} is not an absolute path; pass a full path.`,
      );
    let path: string;
    try {
      path = realpathSync(folder);
    } catch {
      throw new ClawsmithError(
        'invalid_workspace',
        `The workspace ${folder} does not exist; create it or leave it out.`,
      );
    }
    if (!statSync(path).isDirectory())
      throw new ClawsmithError('invalid_workspace', `The workspace ${folder} is not a directory; pass a folder.`);
    real.add(path);
  }
  return [...real];
}
