import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConfiguredMcpServer } from './mcp-configuration.js';

/**
 * Whether a server may start: `user` entries are the person's own (their home file, or their
 * editor's servers for a session); a project entry is
 * `trusted` only while its exact content matches what the person trusted, `changed` when it
 * differs since, `untrusted` when never trusted.
 */
export type McpTrustState = 'user' | 'trusted' | 'changed' | 'untrusted';

interface TrustFile {
  readonly version: 1;
  /** workspace real path → server name → SHA-256 of the trusted entry. */
  readonly workspaces: Record<string, Record<string, string>>;
}

/**
 * The person's trust decisions for project MCP servers, kept in the home (never in the
 * workspace, which the repository controls): `<home>/mcp/trust.json`. An unreadable file trusts
 * nothing (fails closed).
 */
export class McpTrustStore {
  readonly #file: string;

  constructor(homeDir: string) {
    this.#file = join(homeDir, 'mcp', 'trust.json');
  }

  #read(): TrustFile {
    try {
      const value = JSON.parse(readFileSync(this.#file, 'utf8')) as Partial<TrustFile>;
      if (value.version === 1 && typeof value.workspaces === 'object' && value.workspaces !== null)
        return value as TrustFile;
    } catch {
      // missing or unreadable: nothing is trusted
    }
    return { version: 1, workspaces: {} };
  }

  #write(file: TrustFile): void {
    mkdirSync(dirname(this.#file), { recursive: true });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.#file);
  }

  /** The trust state of `server` in `workspaceRoot`. */
  stateOf(server: ConfiguredMcpServer, workspaceRoot: string | undefined): McpTrustState {
    // The person's own entries: their home file, or the servers they configured in their editor.
    if (server.scope === 'user' || server.scope === 'editor') return 'user';
    if (workspaceRoot === undefined) return 'untrusted';
    const recorded = this.#read().workspaces[workspaceRoot]?.[server.name];
    if (recorded === undefined) return 'untrusted';
    return recorded === server.entrySha256 ? 'trusted' : 'changed';
  }

  /** Records that the person trusts this exact entry of a project server. */
  trust(server: ConfiguredMcpServer, workspaceRoot: string): void {
    const file = this.#read();
    const workspaces = { ...file.workspaces, [workspaceRoot]: { ...file.workspaces[workspaceRoot] } };
    (workspaces[workspaceRoot] as Record<string, string>)[server.name] = server.entrySha256;
    this.#write({ version: 1, workspaces });
  }

  /** Forgets trust in a project server; returns whether there was any. */
  untrust(serverName: string, workspaceRoot: string): boolean {
    const file = this.#read();
    const recorded = file.workspaces[workspaceRoot];
    if (!recorded || !(serverName in recorded)) return false;
    const { [serverName]: _removed, ...rest } = recorded;
    this.#write({ version: 1, workspaces: { ...file.workspaces, [workspaceRoot]: rest } });
    return true;
  }
}
