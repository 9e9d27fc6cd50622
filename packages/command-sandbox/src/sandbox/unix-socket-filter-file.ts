import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unixSocketFilterProgram } from './unix-socket-filter.js';

let written: string | undefined;

/** A regular file of ours that nobody else can write, holding exactly `program`. */
function holds(path: string, program: Buffer): boolean {
  try {
    const stats = lstatSync(path);
    if (!stats.isFile() || stats.uid !== (process.getuid?.() ?? stats.uid) || (stats.mode & 0o022) !== 0) return false;
    return readFileSync(path).equals(program);
  } catch {
    return false;
  }
}

/**
 * The path of a file holding the compiled Unix socket filter, which the launcher opens on the
 * descriptor bubblewrap's `--seccomp` reads (Node cannot hand a child an in-memory descriptor).
 * One file per user and filter in the temporary folder, named by the filter's hash, written under
 * a private name and renamed into place, so processes share it and none leaves one behind. It is
 * checked before every use (ours, writable by nobody else, the same bytes) and written again if
 * a temporary-file cleaner removed it; where another user holds the name, a private folder is used.
 */
export function unixSocketFilterFile(): string {
  const program = unixSocketFilterProgram();
  if (written !== undefined && holds(written, program)) return written;
  const digest = createHash('sha256').update(program).digest('hex').slice(0, 16);
  const shared = join(tmpdir(), `clawsmith-seccomp-${process.getuid?.() ?? 'user'}-${digest}.bpf`);
  if (!holds(shared, program)) {
    const temporary = `${shared}.${randomBytes(6).toString('hex')}`;
    writeFileSync(temporary, program, { mode: 0o400, flag: 'wx' });
    try {
      renameSync(temporary, shared);
    } catch {
      // The sticky temporary folder keeps another user's file at that name: use a folder of our own.
      const folder = mkdtempSync(join(tmpdir(), 'clawsmith-seccomp-'));
      renameSync(temporary, join(folder, 'unix-sockets.bpf'));
      written = join(folder, 'unix-sockets.bpf');
      return written;
    }
  }
  written = shared;
  return shared;
}
