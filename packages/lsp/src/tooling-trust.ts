import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WorkspaceTrustRecords } from '@clawsmith/platform';

/** Where typescript-language-server looks for a project-local TypeScript, in its order. */
export const LOCAL_TYPESCRIPT_FOLDERS = Object.freeze([
  'node_modules/typescript/lib',
  '.vscode/pnpify/typescript/lib',
  '.yarn/sdks/typescript/lib',
]);

/**
 * The workspace files that decide what a language server loads from the repository: the
 * workspace's `lsp.json`, a project-local TypeScript (every module of its `lib` folder, which is
 * what tsserver requires), and pyright's configuration (it can name environments).
 */
export const LANGUAGE_TOOLING_FILES = Object.freeze([
  '.clawsmith/lsp.json',
  'node_modules/typescript/package.json',
  ...LOCAL_TYPESCRIPT_FOLDERS.map((folder) => `${folder}/*.js`),
  'pyrightconfig.json',
  'pyproject.toml',
]);

/**
 * Whether the person trusts this workspace's language tooling: `trusted` while the content of
 * {@link LANGUAGE_TOOLING_FILES} matches what they trusted, `changed` when it differs since,
 * `untrusted` when never trusted (or without a home).
 */
export type LanguageToolingTrust = 'trusted' | 'changed' | 'untrusted';

/** The record's key for the language tooling, beside project MCP servers' names in the same shape of file. */
const TOOLING_KEY = 'language-tooling';

function fileDigest(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return null;
  }
}

function expand(workspaceRoot: string, pattern: string): string[] {
  if (!pattern.endsWith('*.js')) return [pattern];
  const folder = pattern === '*.js' ? '.' : pattern.slice(0, -'/*.js'.length);
  try {
    return readdirSync(join(workspaceRoot, folder))
      .filter((name) => name.endsWith('.js'))
      .sort()
      .map((name) => (folder === '.' ? name : `${folder}/${name}`));
  } catch {
    return [];
  }
}

/**
 * Files of the workspace that its `lsp.json` names (a `tsserver.path`, a plugin's location): each
 * such string that leads to a file inside the workspace counts with every `.js` file beside it,
 * so changing the code a trusted setting points at asks for trust again.
 */
function filesNamedByConfig(workspaceRoot: string): string[] {
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(join(workspaceRoot, LANGUAGE_TOOLING_FILES[0]!), 'utf8'));
  } catch {
    return [];
  }
  const named = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const relation = relative(workspaceRoot, resolve(workspaceRoot, value));
      if (relation === '' || relation.startsWith('..') || isAbsolute(relation)) return;
      try {
        if (!statSync(join(workspaceRoot, relation)).isFile()) return;
      } catch {
        return;
      }
      const folder = dirname(relation).split(sep).join('/');
      named.add(relation.split(sep).join('/'));
      named.add(folder === '.' ? '*.js' : `${folder}/*.js`);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(config);
  return [...named].sort();
}

/**
 * The SHA-256 of what decides which repository code a language server would load in
 * `workspaceRoot`: each of {@link LANGUAGE_TOOLING_FILES} by path and content (absent files count
 * too, so adding one changes the fingerprint).
 */
export function languageToolingFingerprint(workspaceRoot: string): string {
  const patterns = [...LANGUAGE_TOOLING_FILES, ...filesNamedByConfig(workspaceRoot)];
  const entries = patterns.flatMap((pattern) =>
    expand(workspaceRoot, pattern).map((path) => [path, fileDigest(join(workspaceRoot, path))]),
  );
  return createHash('sha256')
    .update(JSON.stringify([workspaceRoot, entries]))
    .digest('hex');
}

/**
 * The person's trust in workspaces' language tooling, kept in the home (never in the workspace,
 * which the repository controls): `<home>/lsp/trust.json`, the same record as project MCP
 * servers' (`workspace → name → SHA-256 of the trusted content`). An unreadable file trusts
 * nothing (fails closed).
 */
export class LanguageToolingTrustStore {
  readonly #records: WorkspaceTrustRecords;

  constructor(homeDir: string) {
    this.#records = new WorkspaceTrustRecords(join(homeDir, 'lsp', 'trust.json'));
  }

  /** Whether `workspaceRoot` (a real path) has trusted language tooling, as its files are now. */
  stateOf(workspaceRoot: string): LanguageToolingTrust {
    // One read of the record; the fingerprint (which hashes the tooling's files) only when there is one.
    const recorded = this.#records.recorded(workspaceRoot, TOOLING_KEY);
    if (recorded === undefined) return 'untrusted';
    return recorded === languageToolingFingerprint(workspaceRoot) ? 'trusted' : 'changed';
  }

  /** Records that the person trusts the language tooling of `workspaceRoot` as it is now; returns the fingerprint. */
  trust(workspaceRoot: string): string {
    const fingerprint = languageToolingFingerprint(workspaceRoot);
    this.#records.record(workspaceRoot, TOOLING_KEY, fingerprint);
    return fingerprint;
  }

  /** Forgets trust in the language tooling of `workspaceRoot`; returns whether there was any. */
  untrust(workspaceRoot: string): boolean {
    return this.#records.forget(workspaceRoot, TOOLING_KEY);
  }
}
