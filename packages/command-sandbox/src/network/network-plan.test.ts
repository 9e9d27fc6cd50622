import { describe, expect, it } from 'vitest';
import { bubblewrapArguments } from '../sandbox/bubblewrap-arguments.js';
import { createRunCommandTool } from '../run-command-tool.js';
import { buildSandboxPlan, DEFAULT_SANDBOX_LIMITS } from '../sandbox/sandbox-plan.js';
import { unixSocketFilterProgram } from '../sandbox/unix-socket-filter.js';
import { bridgedCommandArguments, type NetworkBridge } from './network-bridge.js';

const bridge: NetworkBridge = {
  perl: '/usr/bin/perl',
  socketPath: '/run/clawsmith-network/proxy.sock',
  commandToken: '00112233445566778899aabbccddeeff',
  port: 3128,
  systemCalls: { prctl: 157, sendmsg: 46, pidfdOpen: 434 },
  filterProgram: unixSocketFilterProgram('x64'),
  domains: ['registry.npmjs.org'],
};
const plan = buildSandboxPlan({
  workspaceRoot: '/w',
  workingDirectory: '/w',
  commandText: 'npm ci',
  network: false,
  environment: {},
  limits: DEFAULT_SANDBOX_LIMITS,
  pathKind: () => 'missing',
});

describe('bubblewrapArguments behind the network bridge', () => {
  it('keeps the network namespace unshared, leaves the filter to the bridge and runs the command behind it', () => {
    const argv = bubblewrapArguments({ ...plan, networkBridge: bridge });
    expect(argv).toContain('--unshare-net');
    expect(argv).not.toContain('--seccomp');
    const command = argv.slice(argv.indexOf('--', argv.indexOf('--chdir')) + 1);
    expect(command.slice(0, 2)).toEqual(['/usr/bin/perl', '-e']);
    expect(command.slice(3, 11)).toEqual([
      '/run/clawsmith-network/proxy.sock',
      '00112233445566778899aabbccddeeff',
      '3128',
      '157',
      '46',
      '434',
      unixSocketFilterProgram('x64').toString('hex'),
      '-',
    ]);
    expect(command.slice(11, 15)).toEqual(['/bin/bash', '--noprofile', '--norc', '-c']);
    expect(bubblewrapArguments(plan)).toContain('--seccomp');
    expect(bridgedCommandArguments(bridge, ['true']).at(-1)).toBe('true');
  });

  it('starts the bridge in the C locale and hands the command its own LC_ALL back', () => {
    const setenv = (argv: string[]) =>
      argv.flatMap((word, index) => (word === '--setenv' ? [`${argv[index + 1]}=${argv[index + 2]}`] : []));
    const bridged = bubblewrapArguments({ ...plan, networkBridge: bridge });
    expect(setenv(bridged)).toContain('LC_ALL=C');
    expect(setenv(bubblewrapArguments(plan))).not.toContain('LC_ALL=C');
    const own = { ...plan, environment: { LC_ALL: 'de_DE.UTF-8' }, networkBridge: bridge };
    expect(setenv(bubblewrapArguments(own))).toEqual(['LC_ALL=C']);
    expect(bubblewrapArguments(own)).toContain('=de_DE.UTF-8');
    expect(bridgedCommandArguments(bridge, ['true'], '').at(-2)).toBe('=');
  });
});

describe('createRunCommandTool with a network allowlist', () => {
  it('refuses an allowlist beside the open network or without the sandbox, at construction', () => {
    const networkAllowlist = { domains: ['registry.npmjs.org'] };
    expect(() => createRunCommandTool({ network: true, networkAllowlist })).toThrow(/drop `network: true`/);
    expect(() => createRunCommandTool({ sandbox: 'off', networkAllowlist })).toThrow(/drop `sandbox: 'off'`/);
    expect(() => createRunCommandTool({ networkAllowlist })).not.toThrow();
  });
});
