/**
 * How clawsmith learns fresh diagnostics from a server: `pull` asks `textDocument/diagnostic`
 * (used when the server declares it); `tsserver` asks typescript-language-server for tsserver's
 * synchronous diagnostics (its published ones arrive per kind and not at all when unchanged);
 * `publish` waits for the next `textDocument/publishDiagnostics` after the change.
 */
export type DiagnosticsMode = 'auto' | 'pull' | 'tsserver' | 'publish';

/** A language server clawsmith can start: resolved from the built-ins and the `lsp.json` files. */
export interface LanguageServerSpec {
  /** Stable id, for example `typescript`; also the key in `lsp.json`. */
  readonly id: string;
  /** File extensions it serves, with the dot (`.ts`), mapped to the LSP language id. */
  readonly languages: Readonly<Record<string, string>>;
  /** The program to run; resolved lazily so a missing one fails only when its language is asked for. */
  readonly command: () => ServerCommand;
  /** Sent as `initializationOptions`. */
  readonly initializationOptions?: unknown;
  /** How diagnostics are obtained; default `auto` (pull where declared, else publish). */
  readonly diagnostics: DiagnosticsMode;
  /**
   * Adapts `initializationOptions` to whether the person trusts the workspace's language tooling
   * (see `LanguageToolingTrustStore`). Untrusted, the result must make the server load nothing
   * from the workspace (the built-in TypeScript server pins clawsmith's own tsserver); trusted, it
   * may use the workspace's (a project-local TypeScript). Absent: the options are sent as they are.
   */
  readonly forToolingTrust?: (initializationOptions: unknown, trusted: boolean, workspaceRoot: string) => unknown;
}

/** A resolved program and its arguments. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}
