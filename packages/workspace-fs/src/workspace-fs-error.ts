import { ClawsmithError } from '@clawsmith/tool-protocol';

/**
 * Every code this package puts on the errors it throws. The host turns each into a result with
 * `status: 'error'` and the same code.
 */
export const WORKSPACE_FS_ERROR_CODES = Object.freeze({
  /** The path resolves (lexically or through a symlink) outside the workspace. */
  pathOutsideWorkspace: 'path_outside_workspace',
  /** Empty, non-string, too long, or holding a NUL byte; or a symlink loop. */
  invalidPath: 'invalid_path',
  /** A write tool was asked to create or change a protected path such as `.git/`. */
  protectedPath: 'protected_path',
  /** The workspace root itself is missing or not a folder. */
  workspaceUnavailable: 'workspace_unavailable',
  /** Nothing exists at the path (or at its parent). */
  fileNotFound: 'file_not_found',
  /** The path is a folder, FIFO, socket, device or symlink where a regular file is needed. */
  notAFile: 'not_a_file',
  /** A create or rename target already exists. */
  fileExists: 'file_exists',
  /** The content, the edited file or the file to record is over its size limit. */
  fileTooLarge: 'file_too_large',
  /** The file holds binary data where text is needed. */
  binaryFile: 'binary_file',
  /** `edit_file`: the old text does not occur in the file. */
  oldTextNotFound: 'old_text_not_found',
  /** `edit_file`: the old text occurs more than once. */
  oldTextNotUnique: 'old_text_not_unique',
  /** A search expression or glob pattern that cannot be used. */
  invalidPattern: 'invalid_pattern',
  /** A range argument that does not fit the file or the other arguments. */
  invalidRange: 'invalid_range',
  /** The file changed between being read and being replaced. Retryable after re-reading. */
  fileChanged: 'file_changed',
  /** The checkpoint recorder refused the change, so nothing was written. */
  changeNotRecorded: 'change_not_recorded',
  /** `apply_patch`: the text is not a unified diff. */
  patchInvalid: 'patch_invalid',
  /** `apply_patch`: a hunk does not match the file (or a file to create exists, one to change is missing); nothing was applied. */
  patchConflict: 'patch_conflict',
  /** `apply_patch`: a binary change, rename, copy or mode change, which it does not apply; nothing was applied. */
  patchUnsupported: 'patch_unsupported',
} as const);

/** One of {@link WORKSPACE_FS_ERROR_CODES}. */
export type WorkspaceFsErrorCode = (typeof WORKSPACE_FS_ERROR_CODES)[keyof typeof WORKSPACE_FS_ERROR_CODES];

/** Options of a {@link WorkspaceFsError}. */
export interface WorkspaceFsErrorOptions {
  /** The path as the caller gave it, when there is one. */
  readonly path?: string;
  /** Whether a retry (after re-reading) can succeed. */
  readonly retryable?: boolean;
  /** The underlying system error, kept for logs. */
  readonly cause?: unknown;
}

/** A refusal or failure of a workspace file tool; `code` is one of {@link WORKSPACE_FS_ERROR_CODES}. */
export class WorkspaceFsError extends ClawsmithError {
  declare readonly code: WorkspaceFsErrorCode;
  /** The path as the caller gave it, when there is one. */
  readonly path: string | undefined;

  constructor(code: WorkspaceFsErrorCode, message: string, options: WorkspaceFsErrorOptions = {}) {
    super(code, message, { retryable: options.retryable ?? false, cause: options.cause });
    this.name = 'WorkspaceFsError';
    this.path = options.path;
  }
}

/**
 * The path resolves outside the workspace, lexically or through a symlink. The message never
 * says whether anything exists there.
 */
export class WorkspaceBoundaryError extends WorkspaceFsError {
  constructor(requestedPath: string) {
    super(WORKSPACE_FS_ERROR_CODES.pathOutsideWorkspace, `Path is outside the workspace: ${requestedPath}`, {
      path: requestedPath,
    });
    this.name = 'WorkspaceBoundaryError';
  }
}

/** A write tool was asked to create or change a protected path. */
export class ProtectedPathError extends WorkspaceFsError {
  /** The protected-path glob that matched. */
  readonly pattern: string;

  constructor(requestedPath: string, pattern: string) {
    super(
      WORKSPACE_FS_ERROR_CODES.protectedPath,
      `Path is protected and cannot be created or changed by file tools: ${requestedPath} (matches ${pattern}). ` +
        'Version-control internals, shell startup files, editor task folders and clawsmith config are off limits; ask the user to change it.',
      { path: requestedPath },
    );
    this.name = 'ProtectedPathError';
    this.pattern = pattern;
  }
}
