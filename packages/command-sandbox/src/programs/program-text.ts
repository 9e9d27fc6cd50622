import { readFileSync } from 'node:fs';

/**
 * The package's `programs/` folder: two levels above this file both in `src/programs/` and in
 * `dist/programs/`, so the same path serves the sources and the build.
 */
const PROGRAMS = new URL('../../programs/', import.meta.url);

/** The programs shipped to other interpreters (Perl, sh): real files, checked by their own tools. */
export type ProgramName =
  'network-bridge.pl' | 'network-namespace.pl' | 'network-relay.pl' | 'overlay-setup.pl' | 'overlay-setup.sh';

/**
 * The text of a shipped program, read from the package itself (never from the workspace). It is
 * handed to the interpreter as an argument (`-e`, `-c`), not as a path: inside the sandbox the
 * package's folder may be part of a workspace that commands can write.
 */
export function programText(name: ProgramName): string {
  return readFileSync(new URL(name, PROGRAMS), 'utf8');
}
