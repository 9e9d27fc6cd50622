import { assertAuthorized, defineTool, toolSuccess } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { applyThroughWall, expectUnchanged } from './atomic-file.js';
import { recordAfterChange, recordBeforeChange } from './file-change-recording.js';
import { assertRegularFile, looksBinary, readWholeFile } from './regular-file.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { wholeFileDiff } from './whole-file-diff.js';
import { assertNotSymlink, resolveWritablePath } from './writable-path.js';

const deleteInput = z.strictObject({
  path: z
    .string()
    .describe('Path of the regular file to delete, relative to the workspace. Folders are never deleted.'),
});

/** Builds `delete_file`: deletes one regular file (never a folder), recording it for undo. */
export function createDeleteFileTool(options: ResolvedToolOptions) {
  const { limits } = options;
  return defineTool({
    name: 'delete_file',
    pathArguments: [{ name: 'path', role: 'target' }],
    description: `Delete one regular file in the workspace (at most ${limits.recordBytes} bytes, kept for undo). Folders and symlinks are never deleted.`,
    risk: 'workspace-write',
    capabilities: ['filesystem.write'],
    concurrencySafe: false,
    inputSchema: deleteInput,
    summarize: (input) => `delete ${input.path}`,
    async execute(input, context) {
      assertAuthorized(context, 'delete_file');
      const path = resolveWritablePath(options, context, input.path);
      assertNotSymlink(path, 'delete');
      assertRegularFile(path, 'delete');
      const { content, stats } = readWholeFile(path, 'delete', limits.recordBytes);
      await recordBeforeChange(context, path.relative, { state: 'file', content, mode: stats.mode & 0o7777 });
      await applyThroughWall(options.wall, path, [expectUnchanged(path, stats), { kind: 'unlink', path: path.real }]);
      await recordAfterChange(context, path.relative, { state: 'absent' });
      const text = content.toString('utf8');
      // A binary file has no lines to show as removed.
      const textual = !looksBinary(content) && Buffer.from(text, 'utf8').equals(content);
      return toolSuccess(`Deleted ${path.relative} (${content.length} bytes).`, {
        display: {
          kind: 'diff',
          title: `Deleted ${path.relative}`,
          ...(textual ? { body: wholeFileDiff(path.relative, text, 'deleted') } : {}),
          fields: [{ label: 'bytes', value: String(content.length) }],
        },
      });
    },
  });
}
