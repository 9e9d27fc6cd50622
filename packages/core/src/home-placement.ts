import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ClawsmithError } from '@clawsmith/tool-protocol';

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Refuses a workspace that contains the clawsmith home: commands may write anywhere in the
 * workspace, and the home holds the database whose restore journals undo trusts, other
 * sessions' transcripts and artifacts. Throws `home_inside_workspace`.
 */
export function assertHomeOutsideWorkspace(homeFolder: string, workspaceRoot: string): void {
  const home = realOrResolved(homeFolder);
  const workspace = realOrResolved(workspaceRoot);
  const difference = relative(workspace, home);
  if (difference === '' || (!difference.startsWith('..') && !isAbsolute(difference)))
    throw new ClawsmithError(
      'home_inside_workspace',
      `The clawsmith home ${home} is inside the workspace ${workspace}, where commands could rewrite its database and undo journals. Open a workspace that does not contain the home, or move the home elsewhere with --home or CLAWSMITH_HOME.`,
    );
}
