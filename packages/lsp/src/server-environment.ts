import { delimiter, isAbsolute } from 'node:path';

/** The only variables a language server inherits: enough to find programs and write temporary files, no secrets. */
export const SERVER_ENVIRONMENT_KEYS = Object.freeze([
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'SYSTEMROOT',
]);

/** The minimal environment of a language server process, taken from `source` (default `process.env`). */
export function serverEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const key of SERVER_ENVIRONMENT_KEYS) {
    const value = source[key];
    if (value === undefined) continue;
    // A relative PATH entry would find programs in the workspace (the server's current folder).
    environment[key] =
      key === 'PATH'
        ? value
            .split(delimiter)
            .filter((entry) => isAbsolute(entry))
            .join(delimiter)
        : value;
  }
  return environment;
}
