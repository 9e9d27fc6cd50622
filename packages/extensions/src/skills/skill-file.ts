import { closeSync, fstatSync, openSync, readSync, realpathSync, constants } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { EXTENSIONS_ERROR_CODES, ExtensionsError } from '../extensions-error.js';

/** At most this many bytes of a skill file are returned per call (one more is read to know it was cut). */
export const MAX_SKILL_FILE_BYTES = 100_000;

/** A bounded part of a skill file. */
export interface SkillFileSlice {
  /** The file's path relative to the skill's folder, with `/`. */
  readonly path: string;
  readonly text: string;
  readonly offset: number;
  /** The file's size in bytes. */
  readonly size: number;
  /** Whether bytes follow the returned slice (read on with `offset`). */
  readonly truncated: boolean;
  readonly binary: boolean;
}

function outside(requested: string, why: string): ExtensionsError {
  return new ExtensionsError(
    EXTENSIONS_ERROR_CODES.skillPathOutside,
    `${JSON.stringify(requested.slice(0, 200))} ${why}. Give a path relative to the skill's folder, such as scripts/check.sh, as listed by skill_view.`,
  );
}

/**
 * Resolves `requested` inside the skill's `folder` (a real path) under the workspace's boundary
 * rules: absolute paths, `..` segments and NUL are refused before touching the disk, and the real
 * path (links resolved) must still be inside the folder.
 */
export function resolveSkillFile(folder: string, requested: string): string {
  if (requested.includes('\0')) throw outside(requested, 'contains a NUL character');
  if (isAbsolute(requested) || /^[A-Za-z]:/.test(requested)) throw outside(requested, 'is an absolute path');
  if (requested.split(/[\\/]/).includes('..')) throw outside(requested, "contains '..'");
  const candidate = join(folder, requested);
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    throw new ExtensionsError(
      EXTENSIONS_ERROR_CODES.skillFileNotFound,
      `The skill has no file ${JSON.stringify(requested.slice(0, 200))}. Call skill_view with only the name to list its files.`,
    );
  }
  // The double check: the text stayed inside, and so must the file a link points to.
  if (real !== folder && !real.startsWith(folder + sep)) throw outside(requested, "leads outside the skill's folder");
  return real;
}

// The slice must not end inside a UTF-8 sequence: drop a lead byte whose continuation was cut.
function completeUtf8End(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/**
 * Reads at most {@link MAX_SKILL_FILE_BYTES} of a regular file from `offset`, never the whole of a
 * large file. The descriptor is opened without following a final link, and checked to be a file.
 */
export function readSkillFile(folder: string, real: string, offset = 0): SkillFileSlice {
  let descriptor: number;
  try {
    descriptor = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new ExtensionsError(
      EXTENSIONS_ERROR_CODES.skillFileNotFound,
      `The skill file ${relative(folder, real)} cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  try {
    const stat = fstatSync(descriptor);
    const path = relative(folder, real).split(sep).join('/') || '.';
    if (!stat.isFile())
      throw new ExtensionsError(
        EXTENSIONS_ERROR_CODES.skillFileNotFound,
        `${path} is not a regular file of the skill; give a file path.`,
      );
    const buffer = Buffer.alloc(Math.max(0, Math.min(MAX_SKILL_FILE_BYTES + 1, stat.size - offset + 1)));
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, offset + length);
      if (read === 0) break;
      length += read;
    }
    const truncated = length > MAX_SKILL_FILE_BYTES;
    let bytes = buffer.subarray(0, Math.min(length, MAX_SKILL_FILE_BYTES));
    const binary = bytes.includes(0);
    if (truncated) bytes = bytes.subarray(0, completeUtf8End(bytes));
    return {
      path,
      text: binary ? '' : bytes.toString('utf8'),
      offset,
      size: stat.size,
      truncated: truncated || offset + bytes.length < stat.size,
      binary,
    };
  } finally {
    closeSync(descriptor);
  }
}
