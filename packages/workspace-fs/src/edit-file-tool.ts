import { assertAuthorized, boundText, defineTool, toolSuccess } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { applyThroughWall, createTemporary, expectUnchanged, temporaryBeside } from './atomic-file.js';
import { closestRegion } from './closest-region.js';
import { recordAfterChange, recordBeforeChange } from './file-change-recording.js';
import { looksBinary, readWholeFile, sha256 } from './regular-file.js';
import { countLines, lineAt, occurrences } from './text-lines.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { resolveWritablePath } from './writable-path.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

const editInput = z.strictObject({
  path: z.string().describe('Path of the file to change, relative to the workspace.'),
  oldText: z.string().min(1).describe('Exact text to replace; it must occur exactly once in the file.'),
  newText: z.string().describe('Text to put in its place.'),
});

function diffBody(startLine: number, oldText: string, newText: string): string {
  const removed = oldText.split('\n').map((line) => `-${line}`);
  const added = newText === '' ? [] : newText.split('\n').map((line) => `+${line}`);
  return boundText(
    [`@@ -${startLine},${removed.length} +${startLine},${added.length} @@`, ...removed, ...added].join('\n'),
    16_000,
  );
}

/** Builds `edit_file`: replaces text that occurs exactly once, atomically, keeping the mode. */
export function createEditFileTool(options: ResolvedToolOptions) {
  const { limits } = options;
  return defineTool({
    name: 'edit_file',
    pathArguments: [{ name: 'path', role: 'target' }],
    description:
      'Change an existing text file by replacing oldText, which must occur exactly once, with newText. Read the file first and copy ' +
      `oldText exactly, with enough surrounding lines to be unique. Files up to ${limits.writeBytes} bytes.`,
    risk: 'workspace-write',
    capabilities: ['filesystem.write'],
    concurrencySafe: false,
    inputSchema: editInput,
    summarize: (input) => `edit ${input.path}`,
    async execute(input, context) {
      assertAuthorized(context, 'edit_file');
      const path = resolveWritablePath(options, context, input.path);
      const { content: original, stats } = readWholeFile(path, 'edit', limits.writeBytes);
      const text = original.toString('utf8');
      if (looksBinary(original) || !Buffer.from(text, 'utf8').equals(original)) {
        throw new WorkspaceFsError(
          WORKSPACE_FS_ERROR_CODES.binaryFile,
          `Cannot edit ${path.relative}: it is binary or not valid UTF-8 text, and edit_file changes text only.`,
          {
            path: path.requested,
          },
        );
      }
      const found = occurrences(text, input.oldText);
      if (found.length === 0) {
        const region = closestRegion(text, input.oldText);
        const hint = region
          ? `\nThe closest region is lines ${region.startLine}-${region.endLine}` +
            `${region.differsOnlyInWhitespace ? ' (it differs only in indentation, trailing spaces or line endings)' : ''}:\n${region.excerpt}`
          : '\nNothing in the file resembles it.';
        throw new WorkspaceFsError(
          WORKSPACE_FS_ERROR_CODES.oldTextNotFound,
          `The old text was not found in ${path.relative}; your view of the file is probably stale. Re-read it and copy the text exactly.${hint}`,
          { path: path.requested },
        );
      }
      if (found.length > 1) {
        const lines = found.slice(0, 20).map((index) => lineAt(text, index));
        throw new WorkspaceFsError(
          WORKSPACE_FS_ERROR_CODES.oldTextNotUnique,
          `The old text must occur exactly once; provide more surrounding context. It occurs ${found.length} times in ${path.relative}, ` +
            `at lines ${lines.join(', ')}${found.length > lines.length ? ', …' : ''}.`,
          { path: path.requested },
        );
      }
      const index = found[0]!;
      const startLine = lineAt(text, index);
      const edited = Buffer.from(
        text.slice(0, index) + input.newText + text.slice(index + input.oldText.length),
        'utf8',
      );
      if (edited.length > limits.writeBytes) {
        throw new WorkspaceFsError(
          WORKSPACE_FS_ERROR_CODES.fileTooLarge,
          `The edited file would hold ${edited.length} bytes, over the ${limits.writeBytes}-byte limit. Make a smaller change.`,
          {
            path: path.requested,
          },
        );
      }
      if (edited.equals(original)) {
        return toolSuccess(`Nothing changed in ${path.relative}: oldText and newText are the same.`, {
          display: { kind: 'text', title: `No change to ${path.relative}` },
        });
      }
      const mode = stats.mode & 0o7777;
      await recordBeforeChange(context, path.relative, { state: 'file', content: original, mode });
      const temporary = temporaryBeside(path.real);
      // The check that nobody changed the file since it was read runs right before the rename;
      // rename replaces the directory entry: a hard link to a file elsewhere is cut loose, never written through.
      await applyThroughWall(
        options.wall,
        path,
        [
          createTemporary(path, temporary, edited, mode),
          expectUnchanged(path, stats),
          { kind: 'rename', from: temporary, to: path.real },
        ],
        [temporary],
      );
      const digest = sha256(edited);
      await recordAfterChange(context, path.relative, { state: 'file', sha256: digest, content: edited });
      const removedLines = countLines(input.oldText) || 1;
      const addedLines = countLines(input.newText);
      return toolSuccess(
        `Edited ${path.relative}: replaced ${removedLines} line${removedLines === 1 ? '' : 's'} at line ${startLine} with ${addedLines} line${addedLines === 1 ? '' : 's'}.`,
        {
          display: {
            kind: 'diff',
            title: `Edited ${path.relative}`,
            body: diffBody(startLine, input.oldText, input.newText),
            fields: [{ label: 'sha256', value: digest }],
          },
        },
      );
    },
  });
}
