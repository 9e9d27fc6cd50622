import { assertAuthorized, defineTool, toolSuccess } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { createFileAtomically } from './atomic-file.js';
import { recordAfterChange, recordBeforeChange } from './file-change-recording.js';
import { sha256 } from './regular-file.js';
import { countLines } from './text-lines.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { wholeFileDiff } from './whole-file-diff.js';
import { assertFreeTarget, resolveWritablePath } from './writable-path.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

const writeInput = z.strictObject({
  path: z.string().describe('Path of the new file, relative to the workspace. Its folder must exist.'),
  content: z.string().describe('The full text of the new file.'),
});

/** Builds `write_file`: creates a new file only, atomically, never overwriting anything. */
export function createWriteFileTool(options: ResolvedToolOptions) {
  const { limits } = options;
  return defineTool({
    name: 'write_file',
    pathArguments: [{ name: 'path', role: 'target' }],
    description:
      `Create a new text file (at most ${limits.writeBytes} bytes) in an existing folder of the workspace. Refuses a path that already exists: ` +
      'change existing files with edit_file.',
    risk: 'workspace-write',
    capabilities: ['filesystem.write'],
    concurrencySafe: false,
    inputSchema: writeInput,
    summarize: (input) => `create ${input.path}`,
    async execute(input, context) {
      assertAuthorized(context, 'write_file');
      const content = Buffer.from(input.content, 'utf8');
      if (content.length > limits.writeBytes) {
        throw new WorkspaceFsError(
          WORKSPACE_FS_ERROR_CODES.fileTooLarge,
          `The content is ${content.length} bytes, over the ${limits.writeBytes}-byte limit of write_file. Write a smaller file, or split it.`,
          { path: input.path },
        );
      }
      const path = resolveWritablePath(options, context, input.path);
      assertFreeTarget(path, 'write_file only creates new files. Read it, then change it with edit_file.');
      await recordBeforeChange(context, path.relative, { state: 'absent' });
      await createFileAtomically(options.wall, path, content, undefined);
      const digest = sha256(content);
      await recordAfterChange(context, path.relative, { state: 'file', sha256: digest, content });
      const lines = countLines(input.content);
      return toolSuccess(
        `Created ${path.relative} (${content.length} bytes, ${lines} line${lines === 1 ? '' : 's'}).`,
        {
          display: {
            kind: 'diff',
            title: `Created ${path.relative}`,
            body: wholeFileDiff(path.relative, input.content, 'created'),
            fields: [
              { label: 'bytes', value: String(content.length) },
              { label: 'sha256', value: digest },
            ],
          },
        },
      );
    },
  });
}
