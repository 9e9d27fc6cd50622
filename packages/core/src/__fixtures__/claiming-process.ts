// Test support: a `claiming-turn` process (one machine running a turn that holds its session) and
// a home shared with it, opened by the test itself (on PostgreSQL: CLAWSMITH_DATABASE_URL).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { createScriptedProvider } from '@clawsmith/providers';
import { bundledFixture, createTestdir } from '@clawsmith/test-utils';
import { expect, onTestFinished } from 'vitest';
import { createAgentCore, type AgentCore } from '../agent-core.js';
import { openClawsmithHome } from '../clawsmith-home.js';
import { SessionStore } from '../store/session-store.js';

// Bundled once per test process: each machine then starts without compiling core again.
const fixture = await bundledFixture(resolve(import.meta.dirname, 'claiming-turn.ts'));

/** One `claiming-turn` process, as the machine `hostId`. */
export class ClaimingProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<void>;
  output = '';
  errors = '';
  readonly #waiters = new Set<() => void>();
  #closed = false;

  constructor(home: string, sessionId: string, lease: { durationMs: number; renewEveryMs: number }, hostId?: string) {
    const environment = { ...process.env };
    if (hostId === undefined) delete environment.CLAWSMITH_HOST_ID;
    else environment.CLAWSMITH_HOST_ID = hostId;
    this.child = spawn(
      process.execPath,
      [fixture, home, sessionId, String(lease.durationMs), String(lease.renewEveryMs)],
      { stdio: ['pipe', 'pipe', 'pipe'], env: environment },
    );
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
      for (const waiter of this.#waiters) waiter();
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.errors += chunk.toString()));
    this.child.on('exit', () => this.child.stdin.destroy());
    // 'close', not 'exit': only then has every byte the process printed been read, so a waiter
    // never takes a process that printed its answer and ended for one that ended without it.
    this.exited = new Promise((resolveExit) =>
      this.child.on('close', () => {
        this.#closed = true;
        for (const waiter of this.#waiters) waiter();
        resolveExit();
      }),
    );
    onTestFinished(() => {
      this.child.kill('SIGKILL');
    });
  }

  /** Resolves once the output contains one of `texts`; rejects if the process ends printing none. */
  waitFor(...texts: string[]): Promise<void> {
    return new Promise((resolveWait, reject) => {
      const check = () => {
        if (texts.some((text) => this.output.includes(text))) {
          this.#waiters.delete(check);
          resolveWait();
        } else if (this.#closed) {
          this.#waiters.delete(check);
          reject(new Error(`the process ended before printing ${texts.join(' or ')}: ${this.output}\n${this.errors}`));
        }
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Resolves with the process's last line once it printed TURN or REFUSED. */
  async outcome(): Promise<string> {
    await this.waitFor('TURN ', 'REFUSED ');
    return this.output.split('\n').find((line) => line.startsWith('TURN ') || line.startsWith('REFUSED '))!;
  }
}

export async function openSharedHome(): Promise<{
  home: string;
  core: AgentCore;
  store: SessionStore;
  sessionId: string;
}> {
  const homeDir = createTestdir({}, 'clawsmith-home-');
  const workspace = createTestdir({ 'a.txt': 'alpha\n' });
  const opened = await openClawsmithHome(homeDir.path);
  const core = createAgentCore({
    db: opened.db,
    provider: createScriptedProvider({ script: { responses: [{ text: 'this machine answered' }] } }),
    checkpoints: opened.checkpoints,
    builtinTools: [],
    retention: false,
  });
  onTestFinished(async () => {
    await core.close();
    await opened.close();
    homeDir.remove();
    workspace.remove();
  });
  const session = await core.createSession({ workspaceRoot: workspace.path });
  return { home: homeDir.path, core, store: new SessionStore(opened.db), sessionId: session.id };
}

/** Waits until the session's current claim has run out by the database's clock (the clock every claimant reads). */
export async function untilClaimRunsOut(store: SessionStore, sessionId: string, intervalMs = 250): Promise<void> {
  const { claim } = await store.readClaim(sessionId);
  await expect
    .poll(async () => (await store.readClaim(sessionId)).databaseNow > claim!.expiresAt, {
      timeout: 60_000,
      interval: intervalMs,
    })
    .toBe(true);
}
