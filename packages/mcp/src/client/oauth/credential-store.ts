import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { canonicalSha256 } from '@clawsmith/tool-protocol';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept for one server at one URL. Tokens and client secrets are credentials. */
export interface McpCredentialRecord {
  readonly version: 1;
  /** The server's name in `mcpServers`. */
  readonly server: string;
  /** The URL (after `${env:NAME}` expansion) the tokens were issued for; another URL never gets them. */
  readonly url: string;
  /** The client registration (dynamic, or the configured client id once bound to an issuer). */
  readonly client?: OAuthClientInformationMixed;
  /** The tokens exactly as the SDK handed them over (it stamps and later checks their issuer). */
  readonly tokens?: OAuthTokens;
  /** When the tokens were saved (ISO 8601). */
  readonly tokensSavedAt?: string;
  /** When the access token expires (ISO 8601), from `expires_in` at saving; absent when not said. */
  readonly accessTokenExpiresAt?: string;
  /** Discovered protected-resource and authorization-server metadata, to skip discovery next time. */
  readonly discovery?: OAuthDiscoveryState;
}

/** What `mcp list` may show of a sign-in: never a token. */
export interface McpSignInStatus {
  readonly signedIn: boolean;
  /** When the access token expires (ISO 8601), when the server said. */
  readonly expiresAt?: string;
  /** Whether an expired access token can be refreshed without asking. */
  readonly refreshable: boolean;
  /** The scopes granted, as the authorization server reported them. */
  readonly scope?: string;
  /** When the sign-in (or the last refresh) was saved. */
  readonly savedAt?: string;
}

const DIRECTORY_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Credentials of remote MCP servers, one file per server name and URL under
 * `<home>/mcp/credentials/` (folder 0700, files 0600, written through a temporary file and a
 * rename so a reader never sees half a file). No system keychain is used. A record is found
 * only by the exact name and URL it was saved for: an entry whose URL changed finds nothing.
 */
export class McpCredentialStore {
  readonly directory: string;

  constructor(homeDir: string) {
    this.directory = join(homeDir, 'mcp', 'credentials');
  }

  /** The file that holds `server`'s credentials for `url`. */
  fileOf(server: string, url: string): string {
    return join(this.directory, `${canonicalSha256({ server, url }).slice(0, 32)}.json`);
  }

  /** The record for `server` at `url`, or undefined (none, unreadable, or saved for another URL). */
  read(server: string, url: string): McpCredentialRecord | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.fileOf(server, url), 'utf8'));
    } catch {
      return undefined;
    }
    const record = parsed as Partial<McpCredentialRecord> | null;
    if (!record || record.version !== 1 || record.server !== server || record.url !== url) return undefined;
    return record as McpCredentialRecord;
  }

  /** Changes the record of `server` at `url` (creating it), keeping owner-only permissions. */
  update(server: string, url: string, change: (record: McpCredentialRecord) => McpCredentialRecord): void {
    const current = this.read(server, url) ?? { version: 1 as const, server, url };
    const next = change(current);
    mkdirSync(this.directory, { recursive: true, mode: DIRECTORY_MODE });
    chmodSync(this.directory, DIRECTORY_MODE);
    const file = this.fileOf(server, url);
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: FILE_MODE });
    renameSync(temporary, file);
  }

  /** Removes every record of `server` (any URL); returns how many there were. */
  remove(server: string, options: { exceptUrl?: string } = {}): number {
    let removed = 0;
    for (const record of this.#records()) {
      if (record.value.server !== server || record.value.url === options.exceptUrl) continue;
      rmSync(record.file, { force: true });
      removed += 1;
    }
    return removed;
  }

  /** What may be shown of `server`'s sign-in at `url`. */
  statusOf(server: string, url: string, now = Date.now()): McpSignInStatus {
    const record = this.read(server, url);
    const tokens = record?.tokens;
    if (!tokens) return { signedIn: false, refreshable: false };
    const refreshable = typeof tokens.refresh_token === 'string' && tokens.refresh_token.length > 0;
    const expiresAt = record.accessTokenExpiresAt;
    const expired = expiresAt !== undefined && Date.parse(expiresAt) <= now;
    return {
      signedIn: !expired || refreshable,
      refreshable,
      ...(expiresAt ? { expiresAt } : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      ...(record.tokensSavedAt ? { savedAt: record.tokensSavedAt } : {}),
    };
  }

  *#records(): Generator<{ file: string; value: Partial<McpCredentialRecord> }> {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const file = join(this.directory, name);
      try {
        yield { file, value: JSON.parse(readFileSync(file, 'utf8')) as Partial<McpCredentialRecord> };
      } catch {
        // unreadable: not ours to judge; left alone
      }
    }
  }
}
