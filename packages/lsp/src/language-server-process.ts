import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import {
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type Diagnostic,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';
import { clientCapabilities } from './client-capabilities.js';
import { waitForProcessGroupEnd } from './process-group.js';
import { serverEnvironment } from './server-environment.js';
import type { LanguageServerSpec } from './server-spec.js';

const STDERR_TAIL = 4_000;
/** How long {@link LanguageServerProcess.stop} waits for the killed process group to be gone. */
const GROUP_END_TIMEOUT_MS = 5_000;

/** The diagnostics a server last published for one document, numbered in arrival order. */
export interface PublishedDiagnostics {
  readonly diagnostics: readonly Diagnostic[];
  readonly generation: number;
}

/** Timeouts of one server process. */
export interface ServerProcessLimits {
  /** How long `initialize` may take; default 60,000 ms. */
  readonly startTimeoutMs: number;
  /** How long `shutdown` may take before the process group is killed; default 1,000 ms. */
  readonly stopTimeoutMs: number;
}

/** A request type of the protocol, reduced to what typing a call needs. */
interface AnyRequestType<P, R> {
  readonly method: string;
  readonly _: readonly [P, R, ...unknown[]] | undefined;
}

/** A notification type of the protocol. */
interface AnyNotificationType<P> {
  readonly method: string;
  readonly _?: readonly [P, ...unknown[]] | undefined;
}

/**
 * One running language server: a child process in its own process group, spoken to over
 * stdio with vscode-jsonrpc. Its lifetime ends with {@link LanguageServerProcess.stop} or a crash.
 */
export class LanguageServerProcess {
  readonly spec: LanguageServerSpec;
  readonly workspaceRoot: string;
  capabilities: ServerCapabilities = {};
  private readonly child: ChildProcess;
  private readonly connection: MessageConnection;
  private readonly published = new Map<string, PublishedDiagnostics>();
  private readonly publishWaiters = new Set<() => void>();
  private readonly exitListeners = new Set<(description: string) => void>();
  private generation = 0;
  /** Methods the server registered dynamically (`client/registerCapability`). */
  readonly registeredMethods = new Set<string>();
  private stderrTail = '';
  private exitDescription: string | undefined;

  private constructor(spec: LanguageServerSpec, workspaceRoot: string, child: ChildProcess) {
    this.spec = spec;
    this.workspaceRoot = workspaceRoot;
    this.child = child;
    this.connection = createMessageConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    child.stdin!.on('error', () => {
      // A dead server closes its stdin; the exit handler reports it.
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.on('exit', (code, signal) => {
      // What the server spawned (tsserver, workers) must not outlive it.
      this.killGroup();
      this.onExit(signal ? `was killed by ${signal}` : `exited with code ${code}`);
    });
    child.on('error', (error) => this.onExit(`could not run: ${error.message}`));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.generation += 1;
      this.published.set(params.uri, { diagnostics: params.diagnostics, generation: this.generation });
      for (const waiter of [...this.publishWaiters]) waiter();
    });
    this.connection.onRequest((method, params) => this.answerServerRequest(method, params));
    this.connection.onError(() => {
      // Transport errors surface as failed requests and the exit event.
    });
    this.connection.listen();
  }

  /** Starts `spec` in `workspaceRoot` (the root URI) with the minimal environment and initializes it. */
  static async start(
    spec: LanguageServerSpec,
    workspaceRoot: string,
    limits: ServerProcessLimits,
  ): Promise<LanguageServerProcess> {
    const { command, args } = spec.command();
    const child = spawn(command, [...args], {
      cwd: workspaceRoot,
      env: serverEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so stopping it also ends what it spawned (tsserver, pyright's workers).
      detached: true,
    });
    const server = new LanguageServerProcess(spec, workspaceRoot, child);
    try {
      const rootUri = pathToFileURL(workspaceRoot).href;
      const result = await server.request(
        InitializeRequest.type,
        {
          processId: process.pid,
          rootUri,
          rootPath: workspaceRoot,
          workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
          capabilities: clientCapabilities(spec.diagnostics),
          initializationOptions: spec.initializationOptions ?? null,
        },
        { timeoutMs: limits.startTimeoutMs },
      );
      server.capabilities = result.capabilities;
      await server.notify(InitializedNotification.type, {});
      return server;
    } catch (error) {
      server.kill();
      if (LspError.isInstance(error) && error.code === LSP_ERROR_CODES.requestTimeout) {
        throw new LspError(
          LSP_ERROR_CODES.serverUnavailable,
          `The ${spec.id} language server did not finish starting within ${limits.startTimeoutMs} ms; try again.`,
          { retryable: true, cause: error },
        );
      }
      throw error;
    }
  }

  /** The process id (also its process group id). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process has ended. */
  get exited(): boolean {
    return this.exitDescription !== undefined;
  }

  /** Calls `listener` once when the process ends, with a description of how. */
  onExit(listener: (description: string) => void): void;
  onExit(description: string): void;
  onExit(argument: string | ((description: string) => void)): void {
    if (typeof argument === 'function') {
      if (this.exitDescription !== undefined) argument(this.exitDescription);
      else this.exitListeners.add(argument);
      return;
    }
    if (this.exitDescription !== undefined) return;
    this.exitDescription = argument;
    this.connection.dispose();
    for (const waiter of [...this.publishWaiters]) waiter();
    for (const listener of this.exitListeners) listener(argument);
    this.exitListeners.clear();
  }

  private unavailable(cause?: unknown): LspError {
    const stderr = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return new LspError(
      LSP_ERROR_CODES.serverUnavailable,
      `The ${this.spec.id} language server ${this.exitDescription ?? 'stopped answering'}${stderr ? ` (last output: ${stderr.slice(0, 500)})` : ''}; it restarts on the next call, try again.`,
      { retryable: true, cause },
    );
  }

  /** Sends a request; bounded by `timeoutMs`, cancelled (`$/cancelRequest`) with `signal`. */
  async request<P, R>(
    type: AnyRequestType<P, R>,
    params: P,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<R> {
    if (this.exited) throw this.unavailable();
    options.signal?.throwIfAborted();
    const cancellation = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => cancellation.cancel();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        cancellation.cancel();
        reject(
          new LspError(
            LSP_ERROR_CODES.requestTimeout,
            `The ${this.spec.id} language server did not answer ${type.method} within ${options.timeoutMs} ms (a large project may still be loading); try again.`,
            { retryable: true },
          ),
        );
      }, options.timeoutMs);
    });
    const exited = new Promise<never>((_, reject) => this.onExit(() => reject(this.unavailable())));
    try {
      return await Promise.race([
        this.connection.sendRequest(type.method, params, cancellation.token) as Promise<R>,
        timeout,
        exited,
      ]);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? new DOMException('Aborted', 'AbortError');
      if (LspError.isInstance(error)) throw error;
      if (this.exited) throw this.unavailable(error);
      throw new LspError(
        LSP_ERROR_CODES.requestFailed,
        `The ${this.spec.id} language server failed ${type.method}: ${(error as Error).message}`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  }

  /** Sends a notification. */
  async notify<P>(type: AnyNotificationType<P>, params: P): Promise<void> {
    if (this.exited) throw this.unavailable();
    try {
      await this.connection.sendNotification(type.method, params);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** The diagnostics last published for `uri`, if any. */
  publishedFor(uri: string): PublishedDiagnostics | undefined {
    return this.published.get(uri);
  }

  /** The number of the last publish seen, for {@link waitForPublish}. */
  get publishGeneration(): number {
    return this.generation;
  }

  /** Resolves with the first publish for `uri` newer than `afterGeneration`, or undefined after `timeoutMs`. */
  waitForPublish(uri: string, afterGeneration: number, timeoutMs: number): Promise<PublishedDiagnostics | undefined> {
    return new Promise((resolve) => {
      const check = () => {
        const current = this.published.get(uri);
        if (current && current.generation > afterGeneration) finish(current);
        else if (this.exited) finish(undefined);
      };
      const finish = (value: PublishedDiagnostics | undefined) => {
        clearTimeout(timer);
        this.publishWaiters.delete(check);
        resolve(value);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      this.publishWaiters.add(check);
      check();
    });
  }

  private answerServerRequest(method: string, params: unknown): unknown {
    switch (method) {
      case 'workspace/configuration': {
        const items = (params as { items?: unknown[] } | undefined)?.items ?? [];
        return items.map(() => null);
      }
      case 'client/registerCapability': {
        const registrations = (params as { registrations?: { method?: unknown }[] } | undefined)?.registrations ?? [];
        for (const registration of registrations) {
          if (typeof registration.method === 'string') this.registeredMethods.add(registration.method);
        }
        return null;
      }
      case 'workspace/workspaceFolders':
        return [{ uri: pathToFileURL(this.workspaceRoot).href, name: 'workspace' }];
      default:
        // workDoneProgress/create, showMessageRequest: acknowledged, nothing to do.
        return null;
    }
  }

  /**
   * Asks the server to shut down, then kills its whole process group and resolves once none of
   * its processes runs any more (at most 5 s after the kill), so a caller that stops the server
   * and then exits, or deletes the workspace, leaves no tsserver behind.
   */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.exited) {
      try {
        await this.request({ method: ShutdownRequest.method, _: undefined }, undefined, { timeoutMs });
        await this.notify({ method: ExitNotification.method }, undefined);
      } catch {
        // Killed below either way.
      }
    }
    this.kill();
    if (this.child.pid !== undefined) await waitForProcessGroupEnd(this.child.pid, GROUP_END_TIMEOUT_MS);
  }

  /** Kills the process group at once (the server and everything it spawned). */
  kill(): void {
    this.killGroup();
    if (!this.exited) this.onExit('was stopped');
  }

  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
