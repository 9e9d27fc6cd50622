import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { WorkspaceTrustRecords, type RecordedTrust } from '@clawsmith/platform';

/** SHA-256 of a settings file's bytes, as trust records it. */
export function settingsSha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The person's trust in a workspace's settings files, kept in the home (never in the workspace,
 * which the repository controls): `<home>/settings-trust.json`, workspace → settings file path →
 * SHA-256 of the trusted content, the same record as the trust in project MCP servers. An
 * unreadable record trusts nothing (fails closed).
 */
export class SettingsTrustStore {
  readonly #records: WorkspaceTrustRecords;

  constructor(homeDir: string) {
    this.#records = new WorkspaceTrustRecords(join(homeDir, 'settings-trust.json'));
  }

  /** `trusted` while the content's hash is the one the person trusted; `changed` after; else `untrusted`. */
  stateOf(workspaceRoot: string, file: string, sha256: string): RecordedTrust {
    return this.#records.stateOf(workspaceRoot, file, sha256);
  }

  /** Records that the person trusts this exact content of `file`. */
  trust(workspaceRoot: string, file: string, sha256: string): void {
    this.#records.record(workspaceRoot, file, sha256);
  }
}
