/** Bounds and timeouts of the lsp service. Every answer and every wait is bounded. */
export interface LspLimits {
  /** Diagnostics listed in one answer; the rest are counted. Default 100. */
  readonly maxDiagnostics: number;
  /** Default number of references listed. Default 50. */
  readonly defaultReferences: number;
  /** Most references a call may ask for. Default 200. */
  readonly maxReferences: number;
  /** Symbols listed in one answer. Default 200. */
  readonly maxSymbols: number;
  /** Characters of hover text. Default 4,000. */
  readonly maxHoverCharacters: number;
  /** Files changed in the turn that `lsp_diagnostics` checks without a path. Default 20. */
  readonly maxChangedFiles: number;
  /** Documents a server keeps open. Default 100. */
  readonly maxOpenDocuments: number;
  /** How long a server may take to start. Default 60,000 ms. */
  readonly startTimeoutMs: number;
  /** How long one request may take (the first in a large project loads it). Default 60,000 ms. */
  readonly requestTimeoutMs: number;
  /** How long to wait for published diagnostics after a change. Default 5,000 ms. */
  readonly diagnosticsWaitMs: number;
  /** Delay before the first restart after a crash; doubles per crash. Default 250 ms. */
  readonly restartDelayMs: number;
  /** Longest delay between restarts. Default 30,000 ms. */
  readonly maxRestartDelayMs: number;
  /** How long `shutdown` may take before the process group is killed. Default 1,000 ms. */
  readonly stopTimeoutMs: number;
}

/** The default {@link LspLimits}. */
export const DEFAULT_LSP_LIMITS: LspLimits = Object.freeze({
  maxDiagnostics: 100,
  defaultReferences: 50,
  maxReferences: 200,
  maxSymbols: 200,
  maxHoverCharacters: 4_000,
  maxChangedFiles: 20,
  maxOpenDocuments: 100,
  startTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
  diagnosticsWaitMs: 5_000,
  restartDelayMs: 250,
  maxRestartDelayMs: 30_000,
  stopTimeoutMs: 1_000,
});
