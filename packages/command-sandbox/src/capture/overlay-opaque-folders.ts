import { spawnSync } from 'node:child_process';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';

const BLOCK = 512;
const OPAQUE_KEY = /^SCHILY\.xattr\.user\.overlay\.opaque$/;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('latin1');
}

function paxKeys(records: Buffer): { keys: Map<string, string> } {
  const keys = new Map<string, string>();
  let offset = 0;
  while (offset < records.length) {
    const space = records.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number.parseInt(records.subarray(offset, space).toString('latin1'), 10);
    if (!Number.isSafeInteger(length) || length <= 0) break;
    const record = records.subarray(space + 1, offset + length - 1);
    const equals = record.indexOf(0x3d);
    if (equals !== -1)
      keys.set(record.subarray(0, equals).toString('latin1'), record.subarray(equals + 1).toString('utf8'));
    offset += length;
  }
  return { keys };
}

/**
 * Which of `folders` (relative to `upper`) overlayfs marked opaque (`user.overlay.opaque=y`: the
 * folder replaced a deleted one, so nothing of the lower folder shows through). Node's fs cannot
 * read extended attributes, so GNU tar reads them (one process for all folders, names passed
 * NUL-separated on stdin) and this parses its POSIX headers; tar keeps the input order, so the
 * n-th folder entry answers for the n-th folder. Throws when tar fails: capture cannot be
 * trusted then.
 */
export function opaqueFolders(upper: string, folders: readonly string[]): Set<string> {
  const opaque = new Set<string>();
  if (folders.length === 0) return opaque;
  const tar = resolveTrustedLauncher('tar');
  if (!tar.found) throw new Error(`tar is needed to read the overlay's folder marks: ${tar.detail}`);
  const result = spawnSync(
    tar.program,
    [
      '--create',
      '--file=-',
      '--format=posix',
      '--no-recursion',
      '--xattrs',
      '--xattrs-include=user.overlay.opaque',
      `--directory=${upper}`,
      '--null',
      '--verbatim-files-from',
      '--files-from=-',
    ],
    { input: Buffer.from(folders.map((folder) => `${folder}\0`).join('')), maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0 || !Buffer.isBuffer(result.stdout)) {
    throw new Error(
      `tar could not read the overlay's folder marks: ${String(result.stderr ?? result.error).slice(0, 300)}`,
    );
  }
  const stream = result.stdout;
  let offset = 0;
  let index = 0;
  let pending = false;
  while (offset + BLOCK <= stream.length && index < folders.length) {
    const header = stream.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0x30);
    const body = stream.subarray(offset + BLOCK, offset + BLOCK + size);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      for (const [key, value] of paxKeys(body).keys) if (OPAQUE_KEY.test(key) && value === 'y') pending = true;
      continue;
    }
    if (type === 'g') continue;
    if (pending) opaque.add(folders[index]!);
    pending = false;
    index += 1;
  }
  return opaque;
}
