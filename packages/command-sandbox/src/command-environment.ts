import { COMMAND_SANDBOX_ERROR_CODES, CommandSandboxError } from './errors.js';

/** Names that pass into a command's environment by default (plus every `LC_*`). */
export const DEFAULT_ENVIRONMENT_ALLOWLIST = Object.freeze(['PATH', 'HOME', 'LANG', 'TERM', 'TZ', 'USER', 'TMPDIR']);

const FORBIDDEN_EXACT = new Set([
  'BASH_ENV',
  'ENV',
  'NODE_OPTIONS',
  'SHELLOPTS',
  'BASHOPTS',
  'PROMPT_COMMAND',
  'IFS',
  'CDPATH',
  'GLOBIGNORE',
  'PS4',
  'EMAIL',
  'ZDOTDIR',
]);
const FORBIDDEN_PATTERNS: readonly RegExp[] = [
  /^LD_/,
  /^DYLD_/,
  /^PYTHON/,
  /^PERL5?(LIB|OPT|DB)/,
  /^RUBY(LIB|OPT)/,
  /^NODE_(PATH|OPTIONS|EXTRA_CA_CERTS)/,
  /^GIT_(CONFIG|SSH|ASKPASS|EXEC_PATH|DIR|WORK_TREE|PROXY|TEMPLATE_DIR|EXTERNAL_DIFF|PAGER|EDITOR)/,
  /^(HTTPS?|FTP|ALL|NO|SOCKS)_PROXY$/i,
  /KEY|SECRET|TOKEN|PASSW|PWD$|CREDENTIAL|AUTH|SESSION|COOKIE|PRIVATE|CERT/i,
];

/** Whether `name` may never enter a command's environment, even when the user adds it. */
export function isForbiddenEnvironmentName(name: string): boolean {
  return FORBIDDEN_EXACT.has(name) || FORBIDDEN_PATTERNS.some((pattern) => pattern.test(name));
}

/** Throws `environment_name_forbidden` for an allowlist addition that names a forbidden variable. */
export function assertEnvironmentAdditions(names: readonly string[]): void {
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || isForbiddenEnvironmentName(name)) {
      throw new CommandSandboxError(
        COMMAND_SANDBOX_ERROR_CODES.environmentNameForbidden,
        `The environment variable ${JSON.stringify(name)} may not be passed to commands: it can inject code (BASH_ENV, LD_*, NODE_OPTIONS, PYTHON*, git config), redirect traffic (proxies) or carry a secret. Remove it from the env allowlist.`,
      );
    }
  }
}

/** Options of {@link buildCommandEnvironment}. */
export interface CommandEnvironmentOptions {
  /** The environment to pick from; default `process.env`. */
  readonly source?: Readonly<Record<string, string | undefined>>;
  /** Names added to the allowlist (checked with {@link assertEnvironmentAdditions}). */
  readonly additions?: readonly string[];
  /** Values that replace what the source holds (`TMPDIR` inside the sandbox, for example). */
  readonly overrides?: Readonly<Record<string, string>>;
}

/**
 * The minimal environment of a command: only allowlisted names, never a forbidden one (even a
 * default one whose value was tampered with is dropped if its name is forbidden), and a plain
 * `PATH` when the source has none. A workspace `.env` or `.envrc` is never read.
 */
export function buildCommandEnvironment(options: CommandEnvironmentOptions = {}): Record<string, string> {
  const source = options.source ?? process.env;
  const additions = options.additions ?? [];
  assertEnvironmentAdditions(additions);
  const allowed = new Set([...DEFAULT_ENVIRONMENT_ALLOWLIST, ...additions]);
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || isForbiddenEnvironmentName(name)) continue;
    if (allowed.has(name) || /^LC_[A-Z_]+$/.test(name)) environment[name] = value;
  }
  environment.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return { ...environment, ...options.overrides };
}
