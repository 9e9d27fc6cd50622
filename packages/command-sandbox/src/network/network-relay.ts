import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { programText } from '../programs/program-text.js';
import type { NetworkSystemCalls } from './network-bridge.js';

/** The relay, from `programs/network-relay.pl` (what it does and why is said there). */
const RELAY_PERL = programText('network-relay.pl');

/** Where the relay listens and where it reaches the proxy. */
export interface NetworkRelayOptions {
  /** The trusted Perl. */
  readonly perl: string;
  /** The socket the bridge connects to (bound into the sandbox). */
  readonly listenPath: string;
  /** The proxy's private socket that answers a CONNECT with a decision. */
  readonly decisionPath: string;
  /** Called when the relay ends after it listened (it is not restarted). */
  readonly onExit: () => void;
  /** The system call numbers here. */
  readonly systemCalls: NetworkSystemCalls;
}

/** A running relay: {@link stop} kills it and every connection it carries. */
export interface NetworkRelay {
  stop(): void;
}

/**
 * Starts the relay and resolves once it listens, so the bridge's first connect cannot race it.
 * It runs in its own process group, with an empty environment.
 */
export async function startNetworkRelay(options: NetworkRelayOptions): Promise<NetworkRelay> {
  const { prctl, recvmsg, splice } = options.systemCalls;
  const child = spawn(
    options.perl,
    ['-e', RELAY_PERL, options.listenPath, options.decisionPath, String(prctl), String(recvmsg), String(splice)],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: {} },
  );
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    errors += text;
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let said = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        said += text;
        if (said.includes('ready\n')) resolve();
      });
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`the network relay ended before it listened (${signal ?? `exit ${code}`}): ${errors.trim()}`)),
      );
    });
  } catch (error) {
    stop();
    throw error;
  }
  child.stderr.removeAllListeners('data');
  child.stderr.resume();
  child.removeAllListeners('exit');
  child.once('exit', options.onExit);
  child.stdout.resume();
  child.unref();
  (child.stdout as Socket).unref();
  (child.stderr as Socket).unref();
  return { stop };
}
