import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * The only folders a sandbox launcher is taken from. `PATH` is never consulted: under `npm run`
 * or `npx` it starts with `<workspace>/node_modules/.bin`, where any command can plant a `bwrap`.
 */
export const TRUSTED_LAUNCHER_FOLDERS: readonly string[] = Object.freeze([
  '/usr/bin',
  '/bin',
  '/usr/sbin',
  '/sbin',
  '/usr/local/bin',
]);

/** A launcher found and checked, or why none was. */
export type TrustedLauncher =
  { readonly found: true; readonly program: string } | { readonly found: false; readonly detail: string };

// Owned by root and writable by nobody else: group or other write (0o022) lets someone else swap it.
function untrustedReason(path: string, wantFile: boolean): string | undefined {
  const stats = statSync(path);
  if (wantFile ? !stats.isFile() : !stats.isDirectory()) return `${path} is not a ${wantFile ? 'file' : 'folder'}`;
  if (stats.uid !== 0) return `${path} is not owned by root`;
  if ((stats.mode & 0o022) !== 0) return `${path} is writable by group or others`;
  if (wantFile && (stats.mode & 0o111) === 0) return `${path} is not executable`;
  return undefined;
}

/**
 * Checks one absolute launcher path: its real file and every folder above it must be owned by
 * root and writable by nobody else, so no command (or user) can replace what it runs.
 */
export function checkTrustedLauncher(candidate: string): TrustedLauncher {
  if (!isAbsolute(candidate)) return { found: false, detail: `${candidate} is not an absolute path` };
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return { found: false, detail: `${candidate} does not exist` };
  }
  try {
    const problem = untrustedReason(real, true);
    if (problem) return { found: false, detail: problem };
    for (let folder = dirname(real); ; folder = dirname(folder)) {
      const folderProblem = untrustedReason(folder, false);
      if (folderProblem) return { found: false, detail: folderProblem };
      if (folder === dirname(folder)) break;
    }
  } catch (error) {
    return { found: false, detail: `${real} could not be checked: ${(error as Error).message}` };
  }
  return { found: true, program: real };
}

/**
 * Finds `name` in {@link TRUSTED_LAUNCHER_FOLDERS} (first that passes
 * {@link checkTrustedLauncher}); an explicit absolute path is checked the same way instead.
 */
export function resolveTrustedLauncher(name: string, explicit?: string): TrustedLauncher {
  if (explicit !== undefined) return checkTrustedLauncher(explicit);
  const problems: string[] = [];
  for (const folder of TRUSTED_LAUNCHER_FOLDERS) {
    const candidate = join(folder, name);
    const checked = checkTrustedLauncher(candidate);
    if (checked.found) return checked;
    if (!checked.detail.endsWith('does not exist')) problems.push(checked.detail);
  }
  return {
    found: false,
    detail:
      problems.length > 0
        ? `no trusted ${name}: ${problems.join('; ')}`
        : `${name} is not installed in ${TRUSTED_LAUNCHER_FOLDERS.join(', ')} (install it from the system's packages)`,
  };
}
