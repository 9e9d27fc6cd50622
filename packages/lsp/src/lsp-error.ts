import { ClawsmithError } from '@clawsmith/tool-protocol';

/** The error codes the lsp tools answer with. Pinned by the public-surface test. */
export const LSP_ERROR_CODES = Object.freeze({
  /** The server crashed, is restarting, or did not start. Retryable: the next call restarts it (after a backoff). */
  serverUnavailable: 'lsp_server_unavailable',
  /** The server's program is not installed; the message says which npm packages to install. */
  serverNotInstalled: 'lsp_server_not_installed',
  /** No server is configured for the file's extension. */
  noServer: 'lsp_no_server',
  /** The server took longer than the request budget. Retryable. */
  requestTimeout: 'lsp_request_timeout',
  /** A server answered a request with an error. */
  requestFailed: 'lsp_request_failed',
  /** An `lsp.json` cannot be used (bad JSON, bad shape, or a repository choosing a command nobody trusted). */
  invalidConfig: 'lsp_invalid_config',
  /** The path resolves outside the workspace (also through a symbolic link). */
  pathOutsideWorkspace: 'path_outside_workspace',
  /** The path is not an existing regular file. */
  fileNotFound: 'file_not_found',
  /** A line or column beyond the end of the file. */
  invalidPosition: 'lsp_invalid_position',
  /** `lsp_diagnostics` without a path in a turn that has changed no files. */
  noChangedFiles: 'lsp_no_changed_files',
} as const);

/** One of the {@link LSP_ERROR_CODES}. */
export type LspErrorCode = (typeof LSP_ERROR_CODES)[keyof typeof LSP_ERROR_CODES];

/** An lsp failure with a stable code and a message that says what to do next. */
export class LspError extends ClawsmithError {
  constructor(code: LspErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(code, message, options);
    this.name = 'LspError';
  }
}
