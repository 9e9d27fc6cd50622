import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unixSocketFilterProgram } from './unix-socket-filter.js';

let written: string | undefined;

function holds(path: string, program: Buffer): boolean {
  try {
    return readFileSync(path).equals(program);
  } catch {
    return false;
  }
}

/**
 * The path of a file holding the compiled Unix socket filter, which the launcher opens on the
 * descriptor bubblewrap's `--seccomp` reads (Node cannot hand a child an in-memory descriptor).
 * Written once per process in a private folder (removed at exit); checked before every use and written again if a
 * temporary-file cleaner removed it or it changed, so a command never starts with another filter.
 */
export function unixSocketFilterFile(): string {
  const program = unixSocketFilterProgram();
  if (written !== undefined && holds(written, program)) return written;
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-seccomp-'));
  const path = join(folder, 'unix-sockets.bpf');
  writeFileSync(path, program, { mode: 0o400 });
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  written = path;
  return path;
}
