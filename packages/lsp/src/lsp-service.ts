import { existsSync, realpathSync } from 'node:fs';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolExecutionContext, TurnChangedFiles } from '@clawsmith/tool-protocol';
import { builtinServers } from './builtin-servers.js';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';
import { DEFAULT_LSP_LIMITS, type LspLimits } from './lsp-limits.js';
import { ManagedServer, type RunningServer } from './managed-server.js';
import { resolveServers } from './server-config.js';
import type { LanguageServerSpec } from './server-spec.js';
import { LanguageToolingTrustStore, LOCAL_TYPESCRIPT_FOLDERS } from './tooling-trust.js';
import { resolveWorkspaceFile, type WorkspaceFile } from './workspace-path.js';

/** Options of {@link createLspService}. */
export interface LspServiceOptions {
  /**
   * The clawsmith home; its `lsp.json` configures servers (trusted), and its `lsp/trust.json`
   * says which workspaces' language tooling the person trusts. Without a home nothing in a
   * workspace is trusted.
   */
  readonly home?: string;
  /** Which files the current turn changed: for `lsp_diagnostics` without a path, and to send them first. */
  readonly changedFiles?: TurnChangedFiles;
  /** The servers before any `lsp.json`; default {@link builtinServers}. */
  readonly servers?: readonly LanguageServerSpec[];
  /** Overrides of {@link DEFAULT_LSP_LIMITS}. */
  readonly limits?: Partial<LspLimits>;
}

/** A document made ready for a request: synced, with its server. */
export interface PreparedDocument {
  readonly workspaceRoot: string;
  readonly file: WorkspaceFile;
  readonly uri: string;
  readonly server: RunningServer;
}

/** A server process the service runs, as listed by {@link LspService.runningServers}. */
export interface RunningServerInfo {
  readonly workspaceRoot: string;
  readonly serverId: string;
  readonly pid: number;
}

interface WorkspaceServers {
  readonly specs: readonly LanguageServerSpec[];
  readonly servers: Map<string, ManagedServer>;
  /** Why workspace settings or code are not used (untrusted tooling); added to every answer. */
  readonly toolingNote?: string;
}

function hasLocalTypescript(workspaceRoot: string): boolean {
  return LOCAL_TYPESCRIPT_FOLDERS.some((folder) => existsSync(join(workspaceRoot, folder, 'tsserver.js')));
}

/**
 * The language servers of one process: one server per workspace and language, shared by every
 * session on that workspace, started on first use and stopped by {@link LspService.close}.
 */
export class LspService {
  readonly limits: LspLimits;
  private readonly workspaces = new Map<string, WorkspaceServers>();
  private readonly realRoots = new Map<string, string>();
  private closed = false;

  constructor(private readonly options: LspServiceOptions = {}) {
    this.limits = Object.freeze({ ...DEFAULT_LSP_LIMITS, ...options.limits });
  }

  /** The real path of the call's workspace. */
  workspaceRootOf(context: Pick<ToolExecutionContext, 'workspaceRoot'>): string {
    let real = this.realRoots.get(context.workspaceRoot);
    if (!real) {
      real = realpathSync(context.workspaceRoot);
      this.realRoots.set(context.workspaceRoot, real);
    }
    return real;
  }

  private workspace(workspaceRoot: string): WorkspaceServers {
    let workspace = this.workspaces.get(workspaceRoot);
    if (!workspace) {
      const trust =
        this.options.home === undefined
          ? 'untrusted'
          : new LanguageToolingTrustStore(this.options.home).stateOf(workspaceRoot);
      const ignored: string[] = [];
      const specs = resolveServers(this.options.servers ?? builtinServers(), {
        workspaceRoot,
        ...(this.options.home !== undefined ? { home: this.options.home } : {}),
        trusted: trust === 'trusted',
        onIgnored: (note) => ignored.push(note),
      });
      if (trust !== 'trusted' && specs.some((spec) => spec.forToolingTrust) && hasLocalTypescript(workspaceRoot))
        ignored.push(
          "The workspace's own TypeScript is not used, clawsmith's is: this workspace's language tooling is not trusted.",
        );
      const toolingNote =
        ignored.length === 0
          ? undefined
          : [
              ...ignored,
              trust === 'changed'
                ? 'Its language tooling changed since the person trusted it; they can review it and run `clawsmith lsp trust` in the workspace again.'
                : 'The person can trust it with `clawsmith lsp trust` in the workspace, after reviewing what it would run.',
            ].join(' ');
      workspace = { specs, servers: new Map(), ...(toolingNote ? { toolingNote } : {}) };
      this.workspaces.set(workspaceRoot, workspace);
    }
    return workspace;
  }

  /**
   * Why this workspace's language settings or code are not used (its language tooling is not
   * trusted), as a sentence for the tool result; undefined when nothing was set aside.
   */
  toolingNote(context: Pick<ToolExecutionContext, 'workspaceRoot'>): string | undefined {
    return this.workspace(this.workspaceRootOf(context)).toolingNote;
  }

  /** The spec serving `path`'s extension in this workspace, if any. */
  specFor(workspaceRoot: string, path: string): LanguageServerSpec | undefined {
    const extension = extname(path);
    return this.workspace(workspaceRoot).specs.find((spec) => Object.hasOwn(spec.languages, extension));
  }

  private managed(workspaceRoot: string, spec: LanguageServerSpec): ManagedServer {
    if (this.closed) {
      throw new LspError(LSP_ERROR_CODES.serverUnavailable, 'The lsp service was closed; nothing can start now.');
    }
    const { servers } = this.workspace(workspaceRoot);
    let server = servers.get(spec.id);
    if (!server) {
      server = new ManagedServer(spec, workspaceRoot, this.limits);
      servers.set(spec.id, server);
    }
    return server;
  }

  /** Absolute paths of the files the call's turn changed that still exist, in the order it touched them. */
  async changedFiles(context: ToolExecutionContext): Promise<WorkspaceFile[]> {
    if (!this.options.changedFiles) return [];
    const root = this.workspaceRootOf(context);
    const paths = await this.options.changedFiles.changedFiles(context.sessionId, context.turnId);
    const files: WorkspaceFile[] = [];
    for (const path of paths) {
      try {
        files.push(resolveWorkspaceFile(root, path));
      } catch {
        // Deleted since, or not a regular file: nothing to ask a server about.
      }
    }
    return files;
  }

  /**
   * Resolves `path` inside the workspace, starts its server if needed, and sends the server the
   * current text of the file, of the turn's changed files in its language, and of every document
   * it already has open, before anything is asked.
   */
  async prepare(context: ToolExecutionContext, path: string): Promise<PreparedDocument> {
    const workspaceRoot = this.workspaceRootOf(context);
    const file = resolveWorkspaceFile(workspaceRoot, path);
    const spec = this.specFor(workspaceRoot, file.absolute);
    if (!spec) {
      const configured = this.workspace(workspaceRoot)
        .specs.flatMap((candidate) => Object.keys(candidate.languages))
        .join(' ');
      throw new LspError(
        LSP_ERROR_CODES.noServer,
        `No language server is configured for ${extname(file.absolute) || 'files without an extension'} (${file.relative}). Servers exist for: ${configured}. Add one in lsp.json (see the lsp package README).`,
      );
    }
    const server = await this.managed(workspaceRoot, spec).acquire();
    const changed = (await this.changedFiles(context))
      .filter((changedFile) => Object.hasOwn(spec.languages, extname(changedFile.absolute)))
      .slice(0, this.limits.maxChangedFiles)
      .map((changedFile) => changedFile.absolute);
    await server.documents.sync([file.absolute, ...changed]);
    return { workspaceRoot, file, uri: pathToFileURL(file.absolute).href, server };
  }

  /** The running servers of every workspace, with their process ids. */
  runningServers(): RunningServerInfo[] {
    const list: RunningServerInfo[] = [];
    for (const [workspaceRoot, workspace] of this.workspaces) {
      for (const [serverId, server] of workspace.servers) {
        const pid = server.pid;
        if (pid !== undefined) list.push({ workspaceRoot, serverId, pid });
      }
    }
    return list;
  }

  /** Stops every server (shutdown, then the process group is killed). Later calls answer `lsp_server_unavailable`. */
  async close(): Promise<void> {
    this.closed = true;
    const servers = [...this.workspaces.values()].flatMap((workspace) => [...workspace.servers.values()]);
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** Creates the lsp service of one process (see {@link LspService}). */
export function createLspService(options: LspServiceOptions = {}): LspService {
  return new LspService(options);
}
