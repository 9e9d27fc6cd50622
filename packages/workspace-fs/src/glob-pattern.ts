import { WORKSPACE_FS_ERROR_CODES, WorkspaceFsError } from './workspace-fs-error.js';

function invalidPattern(message: string, pattern: string): WorkspaceFsError {
  return new WorkspaceFsError(WORKSPACE_FS_ERROR_CODES.invalidPattern, message, { path: pattern });
}

/**
 * Checks that `pattern` is a glob relative to the workspace: a non-empty string without NUL
 * bytes, not absolute, with no `..` segment and no home-folder `~`. Returns it without a
 * leading `./`.
 */
export function assertRelativePattern(pattern: unknown, what: string): string {
  if (typeof pattern !== 'string' || pattern.trim() === '') {
    throw invalidPattern(
      `The ${what} must be a non-empty glob relative to the workspace, such as src/**/*.ts.`,
      String(pattern),
    );
  }
  if (pattern.includes('\0'))
    throw invalidPattern(`The ${what} contains a NUL byte; remove it.`, pattern.replaceAll('\0', '\\0'));
  if (pattern.length > 1_000)
    throw invalidPattern(
      `The ${what} is longer than 1,000 characters; give a shorter one.`,
      `${pattern.slice(0, 80)}…`,
    );
  if (
    pattern.startsWith('/') ||
    pattern.startsWith('\\') ||
    /^[A-Za-z]:[\\/]/.test(pattern) ||
    pattern.startsWith('~')
  ) {
    throw invalidPattern(`The ${what} must be relative to the workspace, not absolute: ${pattern}`, pattern);
  }
  if (pattern.split(/[\\/]/).includes('..')) {
    throw invalidPattern(
      `The ${what} must not climb out with "..": ${pattern}. Patterns are matched inside the workspace only.`,
      pattern,
    );
  }
  if (pattern.startsWith('!')) throw invalidPattern(`The ${what} must not be negated: ${pattern}.`, pattern);
  return pattern.replace(/^(\.\/)+/, '');
}
