import { assertAuthorized, defineTool, toolSuccess } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { applyThroughWall, createTemporary, expectUnchanged, temporaryBeside } from './atomic-file.js';
import { recordAfterChange, recordBeforeChange } from './file-change-recording.js';
import { assertRegularFile, readWholeFile, sha256 } from './regular-file.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { assertFreeTarget, assertNotSymlink, resolveWritablePath } from './writable-path.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';
import type { WorkspacePath } from './path-boundary.js';

const renameInput = z.strictObject({
  from: z.string().describe('Path of the file to move, relative to the workspace.'),
  to: z.string().describe('New path, relative to the workspace. It must not exist; its folder must.'),
});

/** The wall's refusals in this tool's words: what changed, and that nothing was moved. */
function rephrase(error: unknown, from: WorkspacePath, to: WorkspacePath): unknown {
  if (!WorkspaceFsError.isInstance(error)) return error;
  if (error.code === WORKSPACE_FS_ERROR_CODES.fileChanged) {
    return new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.fileChanged,
      `${from.relative} changed while the tool ran; nothing was moved. Check it and try again.`,
      { path: from.requested, retryable: true, cause: error },
    );
  }
  if (error.code === WORKSPACE_FS_ERROR_CODES.fileExists) {
    return new WorkspaceFsError(
      WORKSPACE_FS_ERROR_CODES.fileExists,
      `${to.requested} appeared while the tool ran; nothing was moved or overwritten.`,
      { path: to.requested, cause: error },
    );
  }
  return error;
}

/** Builds `rename_file`: moves a regular file to a path that does not exist, never overwriting. */
export function createRenameFileTool(options: ResolvedToolOptions) {
  const { limits } = options;
  return defineTool({
    name: 'rename_file',
    pathArguments: [
      { name: 'from', role: 'target' },
      { name: 'to', role: 'target' },
    ],
    description:
      'Move or rename a regular file inside the workspace. The target must not exist (nothing is ever overwritten) and its folder must exist.',
    risk: 'workspace-write',
    capabilities: ['filesystem.write'],
    concurrencySafe: false,
    inputSchema: renameInput,
    summarize: (input) => `rename ${input.from} to ${input.to}`,
    async execute(input, context) {
      assertAuthorized(context, 'rename_file');
      const from = resolveWritablePath(options, context, input.from);
      const to = resolveWritablePath(options, context, input.to);
      assertNotSymlink(from, 'rename');
      assertRegularFile(from, 'rename');
      assertFreeTarget(to, 'rename_file never overwrites. Choose another name, or delete the target first.');
      const { content, stats } = readWholeFile(from, 'rename', limits.recordBytes);
      await recordBeforeChange(context, from.relative, { state: 'file', content, mode: stats.mode & 0o7777 });
      await recordBeforeChange(context, to.relative, { state: 'absent' });
      // link() refuses an existing target, so a file created there meanwhile is never clobbered.
      const moved = [
        expectUnchanged(from, stats),
        { kind: 'link', from: from.real, to: to.real },
        { kind: 'unlink', path: from.real },
      ] as const;
      try {
        await applyThroughWall(options.wall, to, moved);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM') throw rephrase(error, from, to);
        // Another file system (or one without hard links): copy, then remove the original.
        const temporary = temporaryBeside(to.real);
        await applyThroughWall(
          options.wall,
          to,
          [
            createTemporary(to, temporary, content, stats.mode & 0o7777),
            expectUnchanged(from, stats),
            { kind: 'link', from: temporary, to: to.real },
            { kind: 'unlink', path: from.real },
          ],
          [temporary],
        ).catch((fallbackError: unknown) => {
          throw rephrase(fallbackError, from, to);
        });
      }
      await recordAfterChange(context, from.relative, { state: 'absent' });
      await recordAfterChange(context, to.relative, { state: 'file', sha256: sha256(content), content });
      return toolSuccess(`Renamed ${from.relative} to ${to.relative}.`, {
        display: {
          kind: 'text',
          title: `Renamed ${from.relative} to ${to.relative}`,
          fields: [{ label: 'bytes', value: String(content.length) }],
        },
      });
    },
  });
}
