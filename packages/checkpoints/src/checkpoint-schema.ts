import type { SharedTables } from '@clawsmith/platform';
import type { Kysely } from 'kysely';

// Row shapes of the tables this package owns (all prefixed `checkpoint_`). Integers that may
// come back as strings from PostgreSQL's bigint are read through Number() where used.

/** One restore point: the state before one turn of one session. */
export interface RestorePointRow {
  session_id: string;
  turn_id: string;
  sequence: number;
  workspace_root: string;
  message_count: number;
  event_sequence: number;
  todo_snapshot: string;
  created_at: number;
  completed_at: number | null;
  undone_at: number | null;
  bytes: number;
  forked_from_session_id: string | null;
  /** JSON array of sentences about changes the turn could not record (see `recorder.note`). */
  notes: string | null;
}

/** One path a turn changed: its first pre-image and latest post-image. */
export interface FileChangeRow {
  session_id: string;
  turn_id: string;
  path: string;
  ordinal: number;
  /** A symlink's target text is stored as its body; a folder has only a mode. */
  before_state: 'absent' | 'file' | 'symlink' | 'directory' | 'unkept';
  before_sha256: string | null;
  before_mode: number | null;
  before_bytes: number | null;
  after_state: 'absent' | 'file' | 'symlink' | 'directory' | 'unknown' | null;
  after_sha256: string | null;
  /** Mode the change left (files and folders); null when the tool did not say. */
  after_mode: number | null;
  after_bytes: number | null;
  after_stored: number;
  lines_added: number | null;
  lines_removed: number | null;
  binary: number;
}

/** A content-addressed body, stored once whatever refers to it. */
export interface BlobRow {
  sha256: string;
  /** The body itself when `chunks` is 0; empty when the body is stored in chunks. */
  content: Uint8Array;
  bytes: number;
  created_at: number;
  /** How many {@link BlobChunkRow}s hold the body (bodies over 1 MiB); 0: the body is `content`. */
  chunks: number;
}

/** One piece (at most 1 MiB) of a body too large for one row, read and written one at a time. */
export interface BlobChunkRow {
  sha256: string;
  chunk_index: number;
  content: Uint8Array;
}

/** One undo batch, kept until it is wholly applied so a killed process can finish it. */
export interface RestoreJournalRow {
  journal_id: string;
  session_id: string;
  turn_id: string;
  state: 'applying' | 'done' | 'discarded';
  undone_turn_ids: string;
  owner_host: string;
  owner_pid: number;
  created_at: number;
  finished_at: number | null;
}

/** One file of an undo batch: what must be there before, and what to put there. */
export interface RestoreEntryRow {
  journal_id: string;
  ordinal: number;
  workspace_root: string;
  path: string;
  expected_state: string;
  expected_sha256: string | null;
  target_state: 'absent' | 'file' | 'symlink' | 'directory';
  target_sha256: string | null;
  target_mode: number | null;
}

/** The tables, as Kysely sees them. */
export interface CheckpointTables {
  checkpoint_restore_point: RestorePointRow;
  checkpoint_file_change: FileChangeRow;
  checkpoint_blob: BlobRow;
  checkpoint_blob_chunk: BlobChunkRow;
  checkpoint_restore_journal: RestoreJournalRow;
  checkpoint_restore_entry: RestoreEntryRow;
}

/**
 * The host's database, whatever its table map: it holds other packages' tables too (a clawsmith
 * home's is `DatabaseHandle` of `@clawsmith/platform`); the store views it through
 * {@link CheckpointTables}, which its migrations create.
 */
export type HostDatabase<Tables = SharedTables> = Kysely<Tables>;
