import { closeSync } from 'node:fs';
import { boundText, defineTool, toolSuccess } from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { resolveWorkspacePath } from './path-boundary.js';
import { looksBinary, openRegularFile, readRange } from './regular-file.js';
import type { ResolvedToolOptions } from './tool-options.js';
import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

const LINE_SCAN_CHUNK = 64 * 1024;

const readFileInput = z
  .strictObject({
    path: z.string().describe('File path relative to the workspace.'),
    offset: z.number().int().min(0).optional().describe('Byte offset to start at (default 0).'),
    length: z.number().int().min(1).optional().describe('Bytes to read at most (default and maximum: the read limit).'),
    startLine: z.number().int().min(1).optional().describe('First line to read (1-based); not with offset.'),
    endLine: z.number().int().min(1).optional().describe('Last line to read (inclusive).'),
  })
  .refine((input) => input.offset === undefined || (input.startLine === undefined && input.endLine === undefined), {
    message: 'Give either a byte range (offset, length) or a line range (startLine, endLine), not both.',
  })
  .refine((input) => input.startLine === undefined || input.endLine === undefined || input.endLine >= input.startLine, {
    message: 'endLine must not be before startLine.',
  });

function invalidRange(message: string, path: string): WorkspaceFsError {
  return new WorkspaceFsError(WORKSPACE_FS_ERROR_CODES.invalidRange, message, { path });
}

/** The byte offset where 1-based line `line` starts, scanning at most `scanLimit` bytes. */
function lineStart(descriptor: number, line: number, scanLimit: number, path: string): number {
  let position = 0;
  let current = 1;
  while (current < line) {
    if (position >= scanLimit) {
      throw invalidRange(
        `Line ${line} lies beyond the first ${scanLimit} bytes of ${path}; read on by byte offset instead.`,
        path,
      );
    }
    const chunk = readRange(descriptor, position, LINE_SCAN_CHUNK);
    if (chunk.length === 0)
      throw invalidRange(`${path} has only ${current} lines; ask for a line at most ${current}.`, path);
    let index = 0;
    while (current < line) {
      const newline = chunk.indexOf(10, index);
      if (newline < 0) break;
      current += 1;
      index = newline + 1;
    }
    position += current === line ? index : chunk.length;
  }
  return position;
}

/** Length of the longest prefix of `bytes` that ends on a UTF-8 character boundary. */
function utf8Boundary(bytes: Buffer): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? end - back : end;
  }
  return end;
}

/** Cuts `bytes` after `lines` newlines, or returns undefined when they hold fewer. */
function cutAfterLines(bytes: Buffer, lines: number, limit: number): Buffer | undefined {
  let index = 0;
  for (let remaining = lines; remaining > 0; remaining -= 1) {
    const newline = bytes.indexOf(10, index);
    if (newline < 0 || newline >= limit) return undefined;
    index = newline + 1;
  }
  return bytes.subarray(0, index);
}

/** Builds `read_file`: bounded text of one regular file, by byte or line range. */
export function createReadFileTool(options: ResolvedToolOptions) {
  return defineTool({
    name: 'read_file',
    pathArguments: [{ name: 'path', role: 'target' }],
    description:
      `Read a text file in the workspace. Returns at most ${options.limits.readBytes} bytes; when the file is longer the result says so ` +
      'and gives the offset to read on from. Ask for a byte range (offset, length) or a line range (startLine, endLine). Binary files are reported, not shown.',
    risk: 'read',
    capabilities: ['filesystem.read'],
    concurrencySafe: true,
    inputSchema: readFileInput,
    summarize: (input) => `read ${input.path}`,
    async execute(input, context) {
      const path = resolveWorkspacePath(options.rootFor(context), input.path);
      const file = openRegularFile(path, 'read');
      try {
        const size = file.stats.size;
        const limit = Math.min(input.length ?? options.limits.readBytes, options.limits.readBytes);
        const lineRange = input.startLine !== undefined || input.endLine !== undefined;
        const startLine = input.startLine ?? 1;
        const start = lineRange
          ? lineStart(file.descriptor, startLine, options.limits.lineScanBytes, input.path)
          : (input.offset ?? 0);
        if (start > size)
          throw invalidRange(`Offset ${start} is past the end of ${input.path} (${size} bytes).`, input.path);
        // One byte beyond the limit is read only to know whether the file goes on; it is
        // never put into the result.
        let bytes = readRange(file.descriptor, start, limit + 1);
        if (looksBinary(bytes) || (start > 0 && looksBinary(readRange(file.descriptor, 0, 8_000)))) {
          const text = `${path.relative} is a binary file (${size} bytes); its content is not shown.`;
          return toolSuccess(text, { display: { kind: 'text', title: `Read ${path.relative} (binary)`, body: text } });
        }
        let complete = true;
        if (input.endLine !== undefined) {
          const cut = cutAfterLines(bytes, input.endLine - startLine + 1, limit);
          if (cut) bytes = cut;
        }
        if (bytes.length > limit) {
          complete = false;
          bytes = bytes.subarray(0, limit);
          bytes = bytes.subarray(0, utf8Boundary(bytes) || bytes.length);
        }
        const end = start + bytes.length;
        const text = bytes.toString('utf8');
        const notes: string[] = [];
        if (!complete) {
          notes.push(
            `[Truncated: showing bytes ${start}-${end} of ${size} in ${path.relative}. The rest was not read into this result. ` +
              `Read on with offset ${end}, or ask for a line range.]`,
          );
        } else if (lineRange) {
          notes.push(
            `[Lines ${startLine}-${input.endLine ?? 'end'} of ${path.relative}: bytes ${start}-${end} of ${size}.]`,
          );
        } else if (start > 0 || end < size) {
          notes.push(`[Bytes ${start}-${end} of ${size} in ${path.relative}.]`);
        }
        const content =
          size === 0
            ? `${path.relative} is empty (0 bytes).`
            : notes.length > 0
              ? `${text}\n\n${notes.join('\n')}`
              : text;
        return toolSuccess(content, {
          display: {
            kind: 'text',
            title: `Read ${path.relative}`,
            body: boundText(text, 16_000),
            fields: [
              { label: 'bytes', value: `${start}-${end} of ${size}` },
              { label: 'truncated', value: complete ? 'no' : 'yes' },
            ],
          },
        });
      } finally {
        closeSync(file.descriptor);
      }
    },
  });
}
