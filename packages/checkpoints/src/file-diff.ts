import type { Kysely } from 'kysely';
import { getBlob } from './blob-store.js';
import { CheckpointError } from './checkpoint-errors.js';
import type { CheckpointTables } from './checkpoint-schema.js';
import { decodeText, unifiedDiff } from './line-diff.js';
import { buildManifest, type FileChangeKind } from './turn-manifest.js';

/** The most text returned for each side of a diff, and for the unified diff itself. */
export const DIFF_TEXT_LIMIT_BYTES = 64 * 1024;

/** One side of a {@link FileDiff}. */
export interface DiffSide {
  /** Whether a file existed on this side. */
  readonly exists: boolean;
  /** Whether the body is known (false when the tool's result was never readable). */
  readonly available: boolean;
  /** Size in bytes; null when absent or unknown. */
  readonly bytes: number | null;
  /** At most 64 KiB of UTF-8 text; null when binary, absent or unavailable. */
  readonly text: string | null;
  readonly truncated: boolean;
}

/** Before and after of one path in one turn, read only when asked for. */
export interface FileDiff {
  readonly sessionId: string;
  readonly turnId: string;
  readonly path: string;
  readonly change: FileChangeKind;
  /** Either side is binary: no text and no unified diff are returned. */
  readonly binary: boolean;
  readonly before: DiffSide;
  readonly after: DiffSide;
  /** Unified diff of the whole texts (3 lines of context), cut at 64 KiB. */
  readonly unifiedDiff: string;
  readonly diffTruncated: boolean;
}

/** Cuts UTF-8 text to at most `limit` bytes without splitting a character. */
function cut(text: string, limit: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength <= limit) return { text, truncated: false };
  let end = limit;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

/** Reads the before and after bodies of `path` in one turn and diffs them. */
export async function diffFile(
  db: Kysely<CheckpointTables>,
  sessionId: string,
  turnId: string,
  path: string,
): Promise<FileDiff> {
  const row = await db
    .selectFrom('checkpoint_file_change')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('turn_id', '=', turnId)
    .where('path', '=', path)
    .executeTakeFirst();
  if (row === undefined) {
    throw new CheckpointError(
      'checkpoint_path_not_in_turn',
      `Turn ${turnId} of session ${sessionId} did not change ${path}; its manifest lists the paths it changed.`,
    );
  }
  const change = buildManifest(sessionId, turnId, [row]).files[0]!.change;
  const beforeBody =
    row.before_state === 'file' && row.before_sha256 !== null ? await getBlob(db, row.before_sha256) : undefined;
  const afterBody =
    row.after_state === 'file' && Number(row.after_stored) === 1 && row.after_sha256 !== null
      ? await getBlob(db, row.after_sha256)
      : undefined;
  const beforeText = row.before_state === 'absent' ? '' : beforeBody === undefined ? undefined : decodeText(beforeBody);
  const afterText = row.after_state === 'absent' ? '' : afterBody === undefined ? undefined : decodeText(afterBody);
  const binary =
    (beforeBody !== undefined && beforeText === undefined) || (afterBody !== undefined && afterText === undefined);
  const side = (exists: boolean, body: Buffer | undefined, text: string | undefined): DiffSide => {
    const shown = exists && text !== undefined && !binary ? cut(text, DIFF_TEXT_LIMIT_BYTES) : undefined;
    return {
      exists,
      available: !exists || body !== undefined,
      bytes: body?.byteLength ?? null,
      text: shown?.text ?? null,
      truncated: shown?.truncated ?? false,
    };
  };
  const whole =
    !binary && beforeText !== undefined && afterText !== undefined
      ? cut(
          unifiedDiff(path, beforeText, afterText, 3, {
            beforeExists: row.before_state !== 'absent',
            afterExists: row.after_state !== 'absent',
          }),
          DIFF_TEXT_LIMIT_BYTES,
        )
      : undefined;
  return {
    sessionId,
    turnId,
    path,
    change,
    binary,
    before: side(row.before_state === 'file', beforeBody, beforeText),
    after: side(row.after_state !== 'absent', afterBody, afterText),
    unifiedDiff: whole?.text ?? '',
    diffTruncated: whole?.truncated ?? false,
  };
}
