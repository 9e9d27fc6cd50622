// The network namespace prepared ahead, in real bubblewrap: each command gets one of its own and
// never a used one, a waiting one ends with its clawsmith process, and where preparing fails the
// command runs behind the bridge (never with an open network). Servers listen on 127.0.0.1 only.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { startLineChild, testdir } from '@clawsmith/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCommand, runCommand, type CommandSandboxOptions } from '../index.js';
import { BoundedOutput } from '../process/bounded-output.js';
import { launcherCommand } from '../process/process-launcher.js';
import { runProcess } from '../process/process-runner.js';
import { resolveTrustedLauncher } from '../process/trusted-launcher.js';
import { PREPARED_NETWORK_ONLY_ARGUMENT } from '../sandbox/bubblewrap-arguments.js';
import { buildSandboxPlan, DEFAULT_SANDBOX_LIMITS } from '../sandbox/sandbox-plan.js';
import { NETWORK_SYSTEM_CALLS } from './network-bridge.js';
import { preparedNamespaceProcesses, takePreparedNamespace } from './prepared-network-namespace.js';
import { attachNetwork } from './sandbox-network.js';

const fixture = resolve(import.meta.dirname, '../__fixtures__/prepared-namespace-in-another-process.ts');
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((_request, response) => response.end('hello through the proxy\n'));
  await new Promise<void>((resolveListening) => server.listen(0, '127.0.0.1', resolveListening));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolveClosed) => server.close(() => resolveClosed())));

const options: CommandSandboxOptions = {
  capture: 'off',
  networkAllowlist: {
    domains: ['allowed.test'],
    allowance: { privateAddresses: ['127.0.0.1'] },
    resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
  },
};
const run = (command: string) => runCommand(options, { workspaceRoot: testdir({}), command, timeoutMs: 60_000 });

/** Whether `pid` still runs (a zombie waiting for its reaper no longer does). */
function runs(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Resolves once none of `pids` runs, polling the real condition within a bound. */
async function ended(pids: readonly number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (pids.some(runs) && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 20));
}

describe('a network namespace prepared ahead', () => {
  it('gives every command a network namespace of its own, never the host one', async () => {
    const host = readlinkSync('/proc/self/ns/net');
    const workspaceRoot = testdir({});
    // Each command marks the shared workspace and waits for the others' marks, so all four run at
    // once and their namespaces' numbers are told apart while all of them exist.
    const command = (name: string) =>
      `readlink /proc/self/ns/net; touch ${name}; for i in $(seq 600); do [ $(ls | wc -l) -ge 4 ] && break; sleep 0.05; done; curl -sS http://allowed.test:${port}/`;
    const results = await Promise.all(
      ['one', 'two', 'three', 'four'].map((name) =>
        runCommand(options, { workspaceRoot, command: command(name), timeoutMs: 60_000 }),
      ),
    );
    const namespaces = results.map((result) => {
      const [namespace, answer] = result.output.split('\n');
      expect(answer).toBe('hello through the proxy');
      return namespace;
    });
    expect(new Set(namespaces).size).toBe(4);
    expect(namespaces).not.toContain(host);
  });

  it('starts one command only: a taken namespace refuses a second start', async () => {
    const perl = resolveTrustedLauncher('perl');
    const namespace = await takePreparedNamespace(
      { perl: perl.found ? perl.program : '/usr/bin/perl', systemCalls: NETWORK_SYSTEM_CALLS[process.arch]! },
      3128,
      { socketPath: '/nonexistent/proxy.sock', commandToken: '0'.repeat(32) },
    );
    expect(namespace).toBeDefined();
    const launch = {
      file: '/bin/true',
      args: [PREPARED_NETWORK_ONLY_ARGUMENT],
      environment: {},
      cwd: '/',
      processesFiles: [],
      stdin: 'null',
    } as const;
    const child = namespace!.start(launch);
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
    expect(() => namespace!.start(launch)).toThrow(/gone or was used already/);
    // The relay's socket does not exist: the namespace ends with 125 before running anything.
    const stderr: Buffer[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    expect(await exited).toBe(125);
    expect(Buffer.concat(stderr).toString()).toContain('connect to the relay at /nonexistent/proxy.sock');
  });

  it('never runs a plan made for it anywhere else: bubblewrap refuses it, and it refuses other launches', async () => {
    const prepared = await prepareCommand(options, testdir({}), 'echo reached');
    try {
      expect(prepared.plan.preparedNetwork).toBeDefined();
      expect(prepared.plan.namespaces.network).toBe(false);
      expect(() => launcherCommand(prepared.launch)).toThrow(/prepared network namespace/);
      // Started directly, as a consumer of prepareCommand might: bubblewrap stops at the marker.
      const direct = spawnSync(prepared.launch.file, prepared.launch.args, { env: {}, encoding: 'utf8' });
      expect(direct.status).not.toBe(0);
      expect(direct.stderr).toContain(`Unknown option ${PREPARED_NETWORK_ONLY_ARGUMENT}`);
      expect(direct.stdout).not.toContain('reached');
    } finally {
      prepared.release();
    }
    const perl = resolveTrustedLauncher('perl');
    const namespace = await takePreparedNamespace(
      { perl: perl.found ? perl.program : '/usr/bin/perl', systemCalls: NETWORK_SYSTEM_CALLS[process.arch]! },
      3128,
      { socketPath: '/nonexistent/proxy.sock', commandToken: '0'.repeat(32) },
    );
    const child = namespace!.start({
      file: '/bin/echo',
      args: ['reached'],
      environment: {},
      cwd: '/',
      processesFiles: [],
      stdin: 'null',
    });
    const output: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk));
    expect(await new Promise((resolveExit) => child.once('close', resolveExit))).toBe(125);
    expect(Buffer.concat(output).toString()).toContain('the launch is not one for a prepared network namespace');
  });

  it('is never used once its process is gone: the command gets a fresh one', async () => {
    await run('true');
    const waiting = preparedNamespaceProcesses();
    expect(waiting).toHaveLength(1);
    process.kill(waiting[0]!, 'SIGKILL');
    await reaped(waiting);
    const result = await run(`curl -sS http://allowed.test:${port}/`);
    expect(result.output).toBe('hello through the proxy\n');
  });

  it.each(['exit', 'die'])('leaves no process behind when its clawsmith process ends (%s)', async (how) => {
    const child = await startLineChild(fixture);
    const pids = (await child.next()).split(' ').map(Number);
    expect(pids).toHaveLength(1);
    expect(runs(pids[0]!)).toBe(true);
    child.send(how);
    await ended(pids);
    expect(pids.filter(runs)).toEqual([]);
  });

  it('leaves the command behind the bridge, with the network namespace bubblewrap makes, when preparing fails', async () => {
    // The namespace waiting from earlier commands goes first; the next is prepared the broken way.
    await run('true');
    const waiting = preparedNamespaceProcesses();
    for (const pid of waiting) process.kill(pid, 'SIGKILL');
    await reaped(waiting);
    const perl = resolveTrustedLauncher('perl');
    const systemCalls = NETWORK_SYSTEM_CALLS[process.arch]!;
    const plan = buildSandboxPlan({
      workspaceRoot: '/w',
      workingDirectory: '/w',
      commandText: 'true',
      network: false,
      environment: {},
      limits: DEFAULT_SANDBOX_LIMITS,
      pathKind: () => 'missing',
    });
    // A system call number no kernel has: unshare fails in the prepared namespace's process.
    const attached = await attachNetwork(plan, options.networkAllowlist!, 'bubblewrap', false, {
      perl: perl.found ? perl.program : '/usr/bin/perl',
      systemCalls: { ...systemCalls, unshare: 4095 },
    });
    attached.release();
    expect(attached.namespace).toBeUndefined();
    expect(attached.plan.preparedNetwork).toBeUndefined();
    expect(attached.plan.networkBridge?.domains).toEqual(['allowed.test']);
    expect(attached.plan.namespaces.network).toBe(true);
  });

  it('still carries a command behind the bridge (the way a terminal command takes)', async () => {
    const prepared = await prepareCommand(
      options,
      testdir({}),
      `curl -sS http://allowed.test:${port}/ && curl -s -o /dev/null -w '%{http_code}' http://other.test:${port}/`,
      undefined,
      true,
    );
    expect(prepared.plan.networkBridge).toBeDefined();
    const output = new BoundedOutput(4096, 4096);
    try {
      const outcome = await runProcess({
        launch: prepared.launch,
        timeoutMs: 60_000,
        output,
        maxProcesses: prepared.plan.limits.processes,
      });
      expect(outcome.exitCode).toBe(0);
    } finally {
      prepared.release();
    }
    expect(output.text()).toBe('hello through the proxy\n403');
    expect(prepared.refusedHosts?.().map((host) => host.host)).toEqual([`other.test:${port}`]);
  });
});

/** Resolves once none of `pids` (children of this process) is in /proc: reaped here, so their exit is known. */
async function reaped(pids: readonly number[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (pids.some((pid) => existsSync(`/proc/${pid}`)) && Date.now() < deadline)
    await new Promise((wait) => setTimeout(wait, 20));
}
