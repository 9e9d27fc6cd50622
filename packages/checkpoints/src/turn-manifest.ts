import type { FileChangeRow } from './checkpoint-schema.js';

/** How a turn changed one path, judged from its first pre-image and latest post-image. */
export type FileChangeKind = 'created' | 'modified' | 'deleted' | 'unchanged';

/** What a changed path is (after the change, or before it when the change removed it). */
export type ManifestEntryKind = 'file' | 'symlink' | 'directory';

/** One changed path of a turn: numbers only, never file bodies. */
export interface ManifestFile {
  /** Workspace-relative path with `/` separators. */
  readonly path: string;
  readonly change: FileChangeKind;
  /** A regular file, a symbolic link or a folder (commands change all three). */
  readonly entry: ManifestEntryKind;
  /** Size before the turn; null when the path was absent. */
  readonly bytesBefore: number | null;
  /** Size after the turn; null when absent or when the tool's result was not readable. */
  readonly bytesAfter: number | null;
  /** Lines added; null when unknown (binary or unreadable result). */
  readonly linesAdded: number | null;
  /** Lines removed; null when unknown. */
  readonly linesRemoved: number | null;
  /** Whether either side is binary (a NUL byte or invalid UTF-8). */
  readonly binary: boolean;
  /** False when the earlier bytes were not kept (over the per-turn pre-image cap): undo leaves this path alone. */
  readonly undoable: boolean;
}

/** What a turn changed: the paths with their statistics and the totals. */
export interface TurnManifest {
  readonly sessionId: string;
  readonly turnId: string;
  /** In the order the turn first touched them. */
  readonly files: readonly ManifestFile[];
  /** Sentences about changes the turn could not record (a command run without capture). */
  readonly notes: readonly string[];
  readonly totals: {
    readonly files: number;
    readonly linesAdded: number;
    readonly linesRemoved: number;
    readonly bytesBefore: number;
    readonly bytesAfter: number;
  };
}

function changeKind(row: FileChangeRow): FileChangeKind {
  const after = row.after_state ?? 'unknown';
  if (row.before_state === 'absent') return after === 'absent' ? 'unchanged' : 'created';
  if (after === 'absent') return 'deleted';
  if (after !== row.before_state || row.after_sha256 !== row.before_sha256) return 'modified';
  const modeAfter = row.after_mode ?? null;
  return modeAfter === null || Number(modeAfter) === Number(row.before_mode) ? 'unchanged' : 'modified';
}

function entryKind(row: FileChangeRow): ManifestEntryKind {
  const state =
    row.after_state === 'symlink' || row.after_state === 'directory' || row.after_state === 'file'
      ? row.after_state
      : row.before_state;
  return state === 'symlink' || state === 'directory' ? state : 'file';
}

const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** Builds the manifest of one turn from its change rows. */
export function buildManifest(
  sessionId: string,
  turnId: string,
  rows: readonly FileChangeRow[],
  notes: readonly string[] = [],
): TurnManifest {
  const files = [...rows]
    .sort((left, right) => Number(left.ordinal) - Number(right.ordinal))
    .map((row): ManifestFile => ({
      path: row.path,
      change: changeKind(row),
      entry: entryKind(row),
      bytesBefore: numberOrNull(row.before_bytes),
      bytesAfter: numberOrNull(row.after_bytes),
      linesAdded: numberOrNull(row.lines_added),
      linesRemoved: numberOrNull(row.lines_removed),
      binary: Number(row.binary) === 1,
      undoable: row.before_state !== 'unkept',
    }));
  const sum = (pick: (file: ManifestFile) => number | null) =>
    files.reduce((total, file) => total + (pick(file) ?? 0), 0);
  return {
    sessionId,
    turnId,
    files,
    notes,
    totals: {
      files: files.length,
      linesAdded: sum((file) => file.linesAdded),
      linesRemoved: sum((file) => file.linesRemoved),
      bytesBefore: sum((file) => file.bytesBefore),
      bytesAfter: sum((file) => file.bytesAfter),
    },
  };
}
