import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What a person's trust record says of something a repository brought: `trusted` while its
 * content hashes to what they trusted, `changed` when it differs since, `untrusted` when never
 * trusted.
 */
export type RecordedTrust = 'trusted' | 'changed' | 'untrusted';

interface TrustFile {
  readonly version: 1;
  /** workspace real path → what is trusted there → SHA-256 of the trusted content. */
  readonly workspaces: Record<string, Record<string, string>>;
}

const NOTHING_TRUSTED: TrustFile = { version: 1, workspaces: {} };

/**
 * One JSON file of trust decisions, `workspace → subject → SHA-256 of the trusted content`, kept
 * in the person's home (never in the workspace, which the repository controls). Project MCP
 * servers, language tooling and settings files each keep one. A missing, unreadable or foreign
 * file trusts nothing (fails closed); writes replace the file atomically, mode 0600.
 */
export class WorkspaceTrustRecords {
  readonly #file: string;

  /** @param file the record's path inside the home, e.g. `<home>/mcp/trust.json`. */
  constructor(file: string) {
    this.#file = file;
  }

  #read(): TrustFile {
    try {
      const value = JSON.parse(readFileSync(this.#file, 'utf8')) as Partial<TrustFile>;
      if (value.version === 1 && typeof value.workspaces === 'object' && value.workspaces !== null)
        return value as TrustFile;
    } catch {
      // missing or unreadable: nothing is trusted
    }
    return NOTHING_TRUSTED;
  }

  #write(workspaces: TrustFile['workspaces']): void {
    mkdirSync(dirname(this.#file), { recursive: true });
    const temporary = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: 1, workspaces }, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.#file);
  }

  /** The hash recorded for `subject` in `workspaceRoot`, if the person ever trusted it. */
  recorded(workspaceRoot: string, subject: string): string | undefined {
    return this.#read().workspaces[workspaceRoot]?.[subject];
  }

  /** Whether `subject` in `workspaceRoot`, whose content now hashes to `sha256`, is trusted. */
  stateOf(workspaceRoot: string, subject: string, sha256: string): RecordedTrust {
    const recorded = this.recorded(workspaceRoot, subject);
    if (recorded === undefined) return 'untrusted';
    return recorded === sha256 ? 'trusted' : 'changed';
  }

  /** Records that the person trusts `subject` in `workspaceRoot` with exactly this content hash. */
  record(workspaceRoot: string, subject: string, sha256: string): void {
    const { workspaces } = this.#read();
    this.#write({ ...workspaces, [workspaceRoot]: { ...workspaces[workspaceRoot], [subject]: sha256 } });
  }

  /** Forgets trust in `subject` in `workspaceRoot`; returns whether there was any. */
  forget(workspaceRoot: string, subject: string): boolean {
    const { workspaces } = this.#read();
    const recorded = workspaces[workspaceRoot];
    if (!recorded || !(subject in recorded)) return false;
    const { [subject]: _removed, ...rest } = recorded;
    this.#write({ ...workspaces, [workspaceRoot]: rest });
    return true;
  }
}
