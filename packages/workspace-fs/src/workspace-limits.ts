const MIB = 1024 * 1024;

/** Every size and count limit of the file tools. */
export interface WorkspaceLimits {
  /** Bytes `read_file` returns at most (it reads one more to know it truncated). Default 100,000. */
  readonly readBytes: number;
  /** Bytes `read_file` may scan to find the start of a line range. Default 64 MiB. */
  readonly lineScanBytes: number;
  /** Results `search_files` returns when the caller does not ask. Default 50. */
  readonly searchResults: number;
  /** Results `search_files` returns at most, whatever the caller asks. Default 100. */
  readonly searchResultsMax: number;
  /** Bytes `search_files` reads in total. Default 2 MiB. */
  readonly searchBytes: number;
  /** Files `search_files` opens at most. Default 2,000. */
  readonly searchFiles: number;
  /** Bytes `search_files` reads of one file. Default 1 MiB. */
  readonly searchFileBytes: number;
  /** Milliseconds a regular-expression search may run before it is stopped. Default 5,000. */
  readonly searchRegexTimeMs: number;
  /** Paths `glob_files` returns at most. Default 1,000. */
  readonly globResults: number;
  /** Folder entries `glob_files` visits at most. Default 100,000. */
  readonly globEntries: number;
  /** Bytes a `write_file` content or an edited file may hold. Default 1 MiB. */
  readonly writeBytes: number;
  /** Bytes of a file `rename_file` or `delete_file` keeps as its undo pre-image. Default 10 MiB. */
  readonly recordBytes: number;
}

/** The contract's default {@link WorkspaceLimits}. */
export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = Object.freeze({
  readBytes: 100_000,
  lineScanBytes: 64 * MIB,
  searchResults: 50,
  searchResultsMax: 100,
  searchBytes: 2 * MIB,
  searchFiles: 2_000,
  searchFileBytes: MIB,
  searchRegexTimeMs: 5_000,
  globResults: 1_000,
  globEntries: 100_000,
  writeBytes: MIB,
  recordBytes: 10 * MIB,
});

/** The defaults with `overrides` applied; throws on a limit that is not a positive integer. */
export function resolveLimits(overrides: Partial<WorkspaceLimits> = {}): WorkspaceLimits {
  const limits = { ...DEFAULT_WORKSPACE_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`Workspace limit ${name} must be a positive integer, got ${String(value)}`);
    }
  }
  if (limits.searchResults > limits.searchResultsMax) {
    throw new TypeError('Workspace limit searchResults must not exceed searchResultsMax');
  }
  return Object.freeze(limits);
}

/** `bytes` as a short human figure: `512 bytes`, `1.5 KiB`, `2.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < MIB) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  return `${(bytes / (1024 * MIB)).toFixed(1)} GiB`;
}
