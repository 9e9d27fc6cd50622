// The programs handed to other interpreters are real files, checked by those interpreters' own
// tools: Perl compiles them under strict and warnings, sh parses its script.
import { execFileSync } from 'node:child_process';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BRIDGE_PROGRAM } from '../network/network-bridge.js';
import { NAMESPACE_PROGRAM } from '../network/prepared-network-namespace.js';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import { programText, programsText, type ProgramName } from './program-text.js';
import { WALL_HELPER_PROGRAM } from './wall-helper-program.js';

const perl = resolveTrustedLauncher('perl');
const shell = resolveTrustedLauncher('sh');
/** Each Perl program as it is run: some are made of several shipped files. */
const PERL_PROGRAMS: readonly (readonly ProgramName[])[] = [
  BRIDGE_PROGRAM,
  NAMESPACE_PROGRAM,
  ['network-relay.pl'],
  ['overlay-setup.pl'],
];

describe('the shipped programs', () => {
  it.runIf(perl.found).each(PERL_PROGRAMS.map((names) => [names.join(' + '), names] as const))(
    '%s compiles under strict and warnings',
    (_, names) => {
      const checked = execFileSync(
        perl.found ? perl.program : 'perl',
        ['-Mstrict', '-Mwarnings', '-c', '-e', programsText(...names)],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          env: {},
        },
      );
      expect(checked).toBe('');
    },
  );

  it.runIf(shell.found)('overlay-setup.sh parses', () => {
    execFileSync(shell.found ? shell.program : 'sh', ['-n', '-c', programText('overlay-setup.sh')], { env: {} });
  });

  it('the wall helper program is JavaScript that compiles', () => {
    expect(() => new Script(WALL_HELPER_PROGRAM)).not.toThrow();
  });
});
