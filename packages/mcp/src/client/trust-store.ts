import { join } from 'node:path';
import { WorkspaceTrustRecords } from '@clawsmith/platform';
import type { ConfiguredMcpServer } from './mcp-configuration.js';

/**
 * Whether a server may start: `user` entries are the person's own (their home file, or their
 * editor's servers for a session); a project entry is
 * `trusted` only while its exact content matches what the person trusted, `changed` when it
 * differs since, `untrusted` when never trusted.
 */
export type McpTrustState = 'user' | 'trusted' | 'changed' | 'untrusted';

/**
 * The person's trust decisions for project MCP servers, kept in the home (never in the
 * workspace, which the repository controls): `<home>/mcp/trust.json`, workspace → server name →
 * SHA-256 of the trusted entry. An unreadable file trusts nothing (fails closed).
 */
export class McpTrustStore {
  readonly #records: WorkspaceTrustRecords;

  constructor(homeDir: string) {
    this.#records = new WorkspaceTrustRecords(join(homeDir, 'mcp', 'trust.json'));
  }

  /** The trust state of `server` in `workspaceRoot`. */
  stateOf(server: ConfiguredMcpServer, workspaceRoot: string | undefined): McpTrustState {
    // The person's own entries: their home file, or the servers they configured in their editor.
    if (server.scope === 'user' || server.scope === 'editor') return 'user';
    if (workspaceRoot === undefined) return 'untrusted';
    return this.#records.stateOf(workspaceRoot, server.name, server.entrySha256);
  }

  /** Records that the person trusts this exact entry of a project server. */
  trust(server: ConfiguredMcpServer, workspaceRoot: string): void {
    this.#records.record(workspaceRoot, server.name, server.entrySha256);
  }

  /** Forgets trust in a project server; returns whether there was any. */
  untrust(serverName: string, workspaceRoot: string): boolean {
    return this.#records.forget(workspaceRoot, serverName);
  }
}
