import type { FileChangeRow } from './checkpoint-schema.js';
import type { FoundState } from './file-state.js';

const modeOf = (value: number | string | null): number | undefined => (value === null ? undefined : Number(value));

/** The state a change row says the turn left (`unknown` when no tool reported it). */
export function afterState(row: FileChangeRow): FoundState {
  const mode = modeOf(row.after_mode ?? null);
  switch (row.after_state) {
    case 'absent':
      return { state: 'absent' };
    case 'file':
      if (row.after_sha256 === null) return { state: 'unknown' };
      return mode === undefined
        ? { state: 'file', sha256: row.after_sha256 }
        : { state: 'file', sha256: row.after_sha256, mode };
    case 'symlink':
      return row.after_sha256 === null ? { state: 'unknown' } : { state: 'symlink', sha256: row.after_sha256 };
    case 'directory':
      return mode === undefined ? { state: 'directory' } : { state: 'directory', mode };
    default:
      return { state: 'unknown' };
  }
}

/** The state a change row says the turn found (with its mode). */
export function beforeState(row: FileChangeRow): FoundState {
  const mode = modeOf(row.before_mode);
  switch (row.before_state) {
    case 'file':
    case 'unkept':
      return { state: 'file', sha256: row.before_sha256 ?? '', mode: mode ?? 0o644 };
    case 'symlink':
      return { state: 'symlink', sha256: row.before_sha256 ?? '' };
    case 'directory':
      return { state: 'directory', mode: mode ?? 0o755 };
    default:
      return { state: 'absent' };
  }
}
