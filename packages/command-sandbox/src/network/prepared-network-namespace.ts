import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { programsText } from '../programs/program-text.js';
import { PREPARED_NETWORK_ONLY_ARGUMENT } from '../sandbox/bubblewrap-arguments.js';
import type { NetworkRelayLaunch } from './network-proxy.js';

/**
 * The prepared namespace, from `programs/network-namespace.pl` (what it does and why is said
 * there) after the proxy port's handoff it shares with the bridge.
 */
export const NAMESPACE_PROGRAM = ['proxy-port-handoff.pl', 'network-namespace.pl'] as const;
const NAMESPACE_PERL = programsText(...NAMESPACE_PROGRAM);

/** What a waiting namespace runs once a command takes it. */
export interface NamespaceLaunch {
  readonly file: string;
  readonly args: readonly string[];
  readonly environment: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Opened on descriptor 3 before the program starts (bubblewrap's `--seccomp 3`). */
  readonly seccompFilterFile?: string;
  /** `cgroup.procs` files the process joins before it becomes the program (it exits 125 when it cannot). */
  readonly processesFiles: readonly string[];
  /** `null`: stdin is /dev/null; `pipe`: the returned process's stdin reaches the program. */
  readonly stdin: 'null' | 'pipe';
}

/** A prepared network namespace taken by one command, ready to become that command's sandbox. */
export interface WaitingNamespace {
  /**
   * Makes the waiting process run `launch` and returns it, with stdin, stdout and stderr pipes.
   * Throws when the process is gone or was started already; it never starts anything elsewhere.
   */
  start(launch: NamespaceLaunch): ChildProcess;
  /** Ends the waiting process if it was never started (the command failed before it ran). */
  abandon(): void;
}

/** Where the taken namespace hands its proxy port: the relay's socket and the command's token. */
export interface NamespaceRelay {
  readonly socketPath: string;
  readonly commandToken: string;
}

interface Prepared {
  readonly child: ChildProcess;
  readonly control: Socket;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

// A waiting namespace never outlives this process: ended at its exit here, and killed by the
// kernel (PR_SET_PDEATHSIG) when this process is killed.
function endAllAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** The pids of the prepared namespaces that run now, taken or not (for tests and diagnostics). */
export function preparedNamespaceProcesses(): number[] {
  return [...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
}

function launchMessage(relay: NamespaceRelay, launch: NamespaceLaunch): Buffer {
  const fields = [
    relay.socketPath,
    relay.commandToken,
    String(launch.processesFiles.length),
    ...launch.processesFiles,
    launch.cwd,
    launch.seccompFilterFile ?? '',
    launch.stdin,
    String(launch.args.length + 1),
    launch.file,
    ...launch.args,
    ...Object.entries(launch.environment).map(([name, value]) => `${name}=${value}`),
  ];
  const body = Buffer.from(fields.join('\0'));
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(8, '0')), body]);
}

/** Starts one namespace: resolves once it waits, rejects when preparing failed. */
async function prepare(relayLaunch: NetworkRelayLaunch, port: number): Promise<Prepared> {
  const { unshare, prctl, sendmsg, pidfdOpen } = relayLaunch.systemCalls;
  const child = spawn(
    relayLaunch.perl,
    [
      '-e',
      NAMESPACE_PERL,
      // Perl would read an argument starting with "--" as one of its own switches.
      '--',
      PREPARED_NETWORK_ONLY_ARGUMENT,
      String(port),
      String(process.getuid?.() ?? 0),
      String(process.getgid?.() ?? 0),
      String(unshare),
      String(prctl),
      String(sendmsg),
      String(pidfdOpen),
    ],
    { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true, env: {} },
  );
  running.add(child);
  endAllAtExit();
  child.once('exit', () => running.delete(child));
  const control = child.stdio[3] as Socket;
  // Buffers, not text: once taken, these pipes carry the command's own output to the runner.
  const errors: Buffer[] = [];
  const onErrors = (chunk: Buffer) => errors.push(chunk);
  child.stderr?.on('data', onErrors);
  try {
    await new Promise<void>((resolve, reject) => {
      let said = '';
      control.setEncoding('utf8').on('data', (text: string) => {
        said += text;
        if (said === 'ready\n') resolve();
      });
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(
          new Error(
            `the prepared network namespace ended (${signal ?? `exit ${code}`}): ${Buffer.concat(errors).toString('utf8').trim()}`,
          ),
        ),
      );
    });
  } catch (error) {
    child.kill('SIGKILL');
    control.destroy();
    throw error;
  } finally {
    child.stderr?.off('data', onErrors);
    control.removeAllListeners('data');
    child.removeAllListeners('error');
  }
  child.removeAllListeners('exit');
  child.once('exit', () => running.delete(child));
  // A namespace killed while it waits: its control socket's error is no error of anyone's.
  control.on('error', () => undefined);
  child.unref();
  for (const stream of [control, child.stdin, child.stdout, child.stderr]) (stream as Socket | null)?.unref();
  return { child, control };
}

// At most one namespace waits; it serves whichever allowlist's command comes first (the relay
// and token it hands its port to come with the command).
let waiting: Promise<Prepared | undefined> | undefined;

function prepareQuietly(relayLaunch: NetworkRelayLaunch, port: number): Promise<Prepared | undefined> {
  return prepare(relayLaunch, port).catch(() => undefined);
}

function alive(prepared: Prepared): boolean {
  return prepared.child.exitCode === null && prepared.child.signalCode === null && !prepared.control.destroyed;
}

/**
 * Takes the waiting network namespace (preparing one now when none waits). Each namespace serves
 * one command only; {@link prepareNextNamespace} makes the next once that command has ended, so
 * preparing never competes with a command's start. Resolves `undefined` when preparing failed: the
 * caller then takes the bridge path, never an open network.
 */
export async function takePreparedNamespace(
  relayLaunch: NetworkRelayLaunch,
  port: number,
  relay: NamespaceRelay,
): Promise<WaitingNamespace | undefined> {
  const pending = waiting;
  waiting = undefined;
  let prepared = await pending;
  if (prepared && !alive(prepared)) {
    prepared.child.kill('SIGKILL');
    prepared = undefined;
  }
  prepared ??= await prepareQuietly(relayLaunch, port);
  if (!prepared) return undefined;
  const { child, control } = prepared;
  let started = false;
  return {
    start(launch) {
      if (started || !alive(prepared))
        throw new Error('the prepared network namespace is gone or was used already; run the command again');
      started = true;
      for (const stream of [control, child.stdin, child.stdout, child.stderr]) (stream as Socket | null)?.ref();
      child.ref();
      control.end(launchMessage(relay, launch));
      if (launch.stdin === 'null') child.stdin?.destroy();
      return child;
    },
    abandon() {
      if (started) return;
      started = true;
      child.kill('SIGKILL');
      control.destroy();
    },
  };
}

/** Prepares the next namespace in the background, unless one waits or is being prepared. */
export function prepareNextNamespace(relayLaunch: NetworkRelayLaunch, port: number): void {
  waiting ??= prepareQuietly(relayLaunch, port);
}
