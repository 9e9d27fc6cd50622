import type { DocumentSync } from './document-sync.js';
import type { LanguageServerProcess } from './language-server-process.js';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';
import type { LspLimits } from './lsp-limits.js';
import type { LanguageServerSpec } from './server-spec.js';

/** A server that has lived this long before crashing starts the backoff again from its first step. */
const STABLE_UPTIME_MS = 60_000;

/** A started server with its open documents. */
export interface RunningServer {
  readonly process: LanguageServerProcess;
  readonly documents: DocumentSync;
}

/**
 * One language server of one workspace across its restarts: started lazily, restarted after a
 * crash once the backoff has passed (250 ms, doubling, at most 30 s), stopped with the service.
 */
export class ManagedServer {
  private running: RunningServer | undefined;
  private starting: Promise<RunningServer> | undefined;
  private crashes = 0;
  private startedAt = 0;
  private restartAt = 0;
  private lastExit = '';
  private closed = false;

  constructor(
    readonly spec: LanguageServerSpec,
    readonly workspaceRoot: string,
    private readonly limits: LspLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** The running server, started now if needed; `lsp_server_unavailable` while a restart is backing off. */
  async acquire(): Promise<RunningServer> {
    if (this.closed) {
      throw new LspError(LSP_ERROR_CODES.serverUnavailable, `The lsp service was closed; nothing can start now.`);
    }
    if (this.running && !this.running.process.exited) return this.running;
    if (this.starting) return this.starting;
    const wait = this.restartAt - this.now();
    if (wait > 0) {
      throw new LspError(
        LSP_ERROR_CODES.serverUnavailable,
        `The ${this.spec.id} language server ${this.lastExit}; it restarts in ${wait} ms. Try again then.`,
        { retryable: true },
      );
    }
    this.starting = this.start();
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  private async start(): Promise<RunningServer> {
    // vscode-jsonrpc and the protocol library load with the first server, not with the tools: most
    // runs of an agent that has the lsp tools never start one.
    const [{ LanguageServerProcess }, { DocumentSync }] = await Promise.all([
      import('./language-server-process.js'),
      import('./document-sync.js'),
    ]);
    let process: LanguageServerProcess;
    try {
      process = await LanguageServerProcess.start(this.spec, this.workspaceRoot, this.limits);
    } catch (error) {
      this.recordCrash(`failed to start`);
      if (LspError.isInstance(error) && error.code === LSP_ERROR_CODES.serverNotInstalled) throw error;
      const message = (error as Error).message;
      if (/ENOENT/.test(message)) {
        throw new LspError(
          LSP_ERROR_CODES.serverNotInstalled,
          `The ${this.spec.id} language server's program was not found (${message}). Install it, or fix "command" for "${this.spec.id}" in lsp.json.`,
          { cause: error },
        );
      }
      if (LspError.isInstance(error)) throw error;
      throw new LspError(
        LSP_ERROR_CODES.serverUnavailable,
        `The ${this.spec.id} language server failed to start: ${message}`,
        {
          retryable: true,
          cause: error,
        },
      );
    }
    if (this.closed) {
      process.kill();
      throw new LspError(LSP_ERROR_CODES.serverUnavailable, `The lsp service was closed while the server started.`);
    }
    this.startedAt = this.now();
    const running = { process, documents: new DocumentSync(process, this.limits.maxOpenDocuments) };
    process.onExit((description) => {
      if (this.running === running) this.running = undefined;
      if (!this.closed) this.recordCrash(description);
    });
    this.running = running;
    return running;
  }

  private recordCrash(description: string): void {
    if (this.startedAt > 0 && this.now() - this.startedAt > STABLE_UPTIME_MS) this.crashes = 0;
    this.crashes += 1;
    this.lastExit = description;
    const delay = Math.min(this.limits.restartDelayMs * 2 ** (this.crashes - 1), this.limits.maxRestartDelayMs);
    this.restartAt = this.now() + delay;
  }

  /** The process id of the running server, if one runs. */
  get pid(): number | undefined {
    return this.running && !this.running.process.exited ? this.running.process.pid : undefined;
  }

  /** Stops the server (shutdown, exit, then the process group is killed); nothing starts afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const starting = this.starting;
    if (starting) await starting.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (running) await running.process.stop(this.limits.stopTimeoutMs);
  }
}
