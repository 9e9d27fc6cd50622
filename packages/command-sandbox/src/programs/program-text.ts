import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandSandboxFolder } from '../package-folder.js';

/** The programs shipped to other interpreters (Perl, sh): real files, checked by their own tools. */
export type ProgramName =
  | 'network-bridge.pl'
  | 'network-namespace.pl'
  | 'network-relay.pl'
  | 'overlay-setup.pl'
  | 'overlay-setup.sh'
  | 'proxy-port-handoff.pl';

/**
 * The text of a shipped program, read from the package's `programs/` folder (never from the
 * workspace). It is handed to the interpreter as an argument (`-e`, `-c`), not as a path: inside
 * the sandbox the package's folder may be part of a workspace that commands can write.
 */
export function programText(name: ProgramName): string {
  return readFileSync(join(commandSandboxFolder(), 'programs', name), 'utf8');
}

/**
 * One program made of shipped files in order, as the interpreter runs it: the bridge and the
 * prepared namespace each run after `proxy-port-handoff.pl`, whose subroutines they call.
 */
export function programsText(...names: readonly ProgramName[]): string {
  return names.map(programText).join('\n');
}
