import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** The project instruction files read from the workspace root, in this order. */
export const PROJECT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAWSMITH.md'] as const;

/** Most bytes read from one instruction file. */
export const PROJECT_INSTRUCTIONS_LIMIT = 32 * 1024;

/** One instruction file as it goes into the system prompt. */
export interface ProjectInstructions {
  readonly file: string;
  readonly text: string;
  /** The file was longer than {@link PROJECT_INSTRUCTIONS_LIMIT} and was cut. */
  readonly cut: boolean;
}

function readHead(path: string, limit: number): { bytes: Buffer; more: boolean } | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    // One byte past the limit says whether the file was cut, without reading all of a huge file.
    const buffer = Buffer.alloc(limit + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const read = readSync(descriptor, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return { bytes: buffer.subarray(0, Math.min(filled, limit)), more: filled > limit };
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Reads `AGENTS.md` and `CLAWSMITH.md` from the workspace root when present, each bounded to
 * 32 KiB (cut at a line end, never inside a character). Unreadable files are skipped.
 */
export function readProjectInstructions(workspaceRoot: string): ProjectInstructions[] {
  const found: ProjectInstructions[] = [];
  for (const file of PROJECT_INSTRUCTION_FILES) {
    const head = readHead(join(workspaceRoot, file), PROJECT_INSTRUCTIONS_LIMIT);
    if (!head) continue;
    let text = head.bytes.toString('utf8');
    if (head.more) {
      const lastLine = text.lastIndexOf('\n');
      text = (lastLine > 0 ? text.slice(0, lastLine) : text).replace(/\uFFFD$/, '');
    }
    if (text.trim() === '') continue;
    found.push({ file, text: text.trimEnd(), cut: head.more });
  }
  return found;
}
