import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface TrustFile {
  readonly version: 1;
  /** workspace real path → settings file path → SHA-256 of the trusted content. */
  readonly workspaces: Record<string, Record<string, string>>;
}

/** SHA-256 of a settings file's bytes, as trust records it. */
export function settingsSha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The person's trust in a workspace's settings files, kept in the home (never in the workspace,
 * which the repository controls): `<home>/settings-trust.json`, the same record shape as the
 * trust in project MCP servers. An unreadable record trusts nothing (fails closed).
 */
export class SettingsTrustStore {
  readonly #file: string;

  constructor(homeDir: string) {
    this.#file = join(homeDir, 'settings-trust.json');
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

  /** `trusted` while the content's hash is the one the person trusted; `changed` after; else `untrusted`. */
  stateOf(workspaceRoot: string, file: string, sha256: string): 'trusted' | 'changed' | 'untrusted' {
    const recorded = this.#read().workspaces[workspaceRoot]?.[file];
    if (recorded === undefined) return 'untrusted';
    return recorded === sha256 ? 'trusted' : 'changed';
  }

  /** Records that the person trusts this exact content of `file`. */
  trust(workspaceRoot: string, file: string, sha256: string): void {
    const current = this.#read();
    const workspaces = {
      ...current.workspaces,
      [workspaceRoot]: { ...current.workspaces[workspaceRoot], [file]: sha256 },
    };
    mkdirSync(dirname(this.#file), { recursive: true });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: 1, workspaces }, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.#file);
  }
}
