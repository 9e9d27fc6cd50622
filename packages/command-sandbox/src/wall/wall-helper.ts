import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, read, readSync, writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import type { WorkspaceMutationBatch, WorkspaceMutationOutcome } from '@clawsmith/tool-protocol';
import { openBlockingPipes, type BlockingPipe } from './blocking-pipe.js';
import { SandboxUnavailableError } from '../errors.js';
import { findProtectedLocations } from '../sandbox/protected-locations.js';
import { WALL_HELPER_PROGRAM } from '../programs/wall-helper-program.js';
import { HOST_READ_ONLY_VIEW } from '../sandbox/sandbox-availability.js';

/** How long a helper may take to say it is ready before it is killed and the batch refused. */
const READY_TIMEOUT_MS = 20_000;
const NEWLINE = 10;
/** How long a helper that ended before it was ready is given to finish saying why on stderr. */
const STDERR_WAIT_MS = 2_000;

/**
 * The helper's view: the host read-only, the workspace (real path) the only writable host folder
 * except the protected paths found in it when the helper starts (read-only again: a folder
 * swapped for a link into `.git` cannot make a file tool write a hook), its own /dev and /proc,
 * every namespace unshared, no capabilities, no environment.
 *
 * No `--die-with-parent`: the helper's life is bound to its request pipe instead, which reaches end
 * of file whenever this process ends, however it ends. A parent-death signal on the outer
 * bubblewrap could kill it before it lets its inner process go on, leaving that one waiting forever.
 */
function helperArguments(workspace: string): string[] {
  const protectedBinds = findProtectedLocations(workspace).existing.flatMap((path) =>
    path === workspace || !path.startsWith(`${workspace}/`) ? [] : ['--ro-bind-try', path, path],
  );
  return [
    ...HOST_READ_ONLY_VIEW,
    '--bind',
    workspace,
    workspace,
    ...protectedBinds,
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--clearenv',
    '--chdir',
    '/',
    '--',
    process.execPath,
    '--max-old-space-size=256',
    '-e',
    WALL_HELPER_PROGRAM,
  ];
}

/** The programs a helper is started with, both resolved from trusted system folders. */
export interface WallPrograms {
  readonly bubblewrap: string;
  readonly mkfifo: string;
}

/**
 * One long-lived helper process for one workspace. A batch is exchanged synchronously: this
 * thread writes it to the helper's blocking pipe and waits in read(2) for the answer, as it would
 * wait in write(2) and fsync(2) applying the batch itself. Waking straight from read(2) instead of
 * through the event loop and a stream is most of what the wall's round trip costs less.
 */
export class WallHelper {
  /** Why the helper is gone (the first reason wins), once it is. */
  private endReason: string | undefined;
  private closed = false;
  /** While the ready line is read in the thread pool, the pipe ends stay open (a closed number can be reused). */
  private starting = true;
  private stderr = '';
  private held = Buffer.alloc(0);
  private readonly answer = Buffer.allocUnsafe(4096);

  private constructor(
    private readonly child: ChildProcess,
    private readonly workspace: string,
    /** Write end of the pipe the helper reads batches from. */
    private readonly requests: number,
    /** Read end of the pipe the helper writes outcomes to. */
    private readonly answers: number,
    /** The root-level protected paths that existed when the helper started (see the wall). */
    readonly rootKey: string,
    /** This side's write end of the answer pipe, held while starting: a newline there ends the wait for the ready line. */
    private wake: number | undefined = undefined,
  ) {
    const stderr = child.stderr as Socket;
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => {
      if (this.stderr.length < 2000) this.stderr += chunk;
    });
    child.on('error', (error) => {
      this.end(`could not start (${error.message})`);
      this.wakeStart();
    });
    child.on('exit', (code, signal) => {
      this.end(`ended (${signal ?? `exit ${code}`})`);
      this.wakeStart();
    });
    // An idle helper never keeps this process alive; the end of its request pipe ends it with us.
    child.unref();
    stderr.unref();
  }

  /** Starts a helper for `workspace` and waits until it is ready; refuses with `sandbox_unavailable`. */
  static async start(programs: WallPrograms, workspace: string, rootKey: string): Promise<WallHelper> {
    const [requests, answers] = (await openBlockingPipes(programs.mkfifo, 2).catch((error: Error) => {
      throw new SandboxUnavailableError(`the file wall's helper could not get its pipes (${error.message})`);
    })) as [BlockingPipe, BlockingPipe];
    let child: ChildProcess;
    try {
      // Its own process group, so that a kill reaches bubblewrap's inner process too (see killGroup),
      // and a Ctrl-C at the terminal reaches only this process, which then ends the helper itself.
      child = spawn(programs.bubblewrap, helperArguments(workspace), {
        env: {},
        stdio: [requests.read, answers.write, 'pipe'],
        detached: true,
      });
    } catch (error) {
      for (const descriptor of [requests.write, answers.read]) closeSync(descriptor);
      throw new SandboxUnavailableError(`the file wall's helper could not start (${(error as Error).message})`);
    } finally {
      closeSync(requests.read);
    }
    // This side keeps a write end of the answer pipe while the ready line is awaited, so that the
    // wait can always be ended from here (see awaitReady); it is closed once the start is over.
    const helper = new WallHelper(child, workspace, requests.write, answers.read, rootKey, answers.write);
    await helper.awaitReady();
    return helper;
  }

  get alive(): boolean {
    return this.endReason === undefined;
  }

  /**
   * Sends `batch` and returns the helper's outcome, or `undelivered` when the helper was gone
   * before it took any of the batch (nothing was applied: the caller may send it to a new helper).
   * Throws `sandbox_unavailable` when the helper ends after taking the batch.
   */
  exchange(batch: WorkspaceMutationBatch): WorkspaceMutationOutcome | 'undelivered' {
    if (this.endReason !== undefined) return 'undelivered';
    const mutations = batch.mutations.map((mutation) =>
      mutation.kind === 'create' || mutation.kind === 'append' || mutation.kind === 'overwrite'
        ? { ...mutation, content: Buffer.from(mutation.content).toString('base64') }
        : mutation,
    );
    const line = Buffer.from(`${JSON.stringify({ ...batch, mutations })}\n`);
    let at = 0;
    try {
      while (at < line.length) at += retried(() => writeSync(this.requests, line, at));
      const answer = this.readAnswer();
      if (answer === undefined) throw this.end('ended');
      return JSON.parse(answer) as WorkspaceMutationOutcome;
    } catch (error) {
      const failure = this.end(`failed (${(error as Error).message})`);
      if (at === 0 && (error as { code?: unknown }).code === 'EPIPE') return 'undelivered';
      throw failure;
    }
  }

  close(): void {
    this.end('was closed');
    this.killGroup();
  }

  /**
   * Kills bubblewrap and everything still in its process group. Killing only the outer bubblewrap
   * while it starts can strand its inner process: before it is told to go on (an eventfd only the
   * outer one writes) the inner one has not yet asked to die with its parent nor left the group.
   */
  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** One line from the helper, or undefined at end of file (the helper is gone). */
  private readAnswer(): string | undefined {
    for (;;) {
      const newline = this.held.indexOf(NEWLINE);
      if (newline >= 0) {
        const line = this.held.toString('utf8', 0, newline);
        this.held = this.held.subarray(newline + 1);
        return line;
      }
      const count = retried(() => readSync(this.answers, this.answer, 0, this.answer.length, null));
      if (count === 0) return undefined;
      const chunk = this.answer.subarray(0, count);
      this.held = this.held.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.held, chunk]);
    }
  }

  /**
   * Ends a wait for the ready line that is in progress: a newline written into the answer pipe
   * returns the thread-pool read at once. Without it a read whose writers outlive this process's
   * interest (the inner bubblewrap holds the helper's end) never ends, and this process's exit
   * hangs, since Node joins its thread pool on the way out.
   */
  private wakeStart(): void {
    if (this.wake === undefined) return;
    try {
      writeSync(this.wake, '\n');
    } catch {
      // The pipe is full or gone: the read has something to return either way.
    }
  }

  /** Waits for the ready line off this thread (a read in libuv's thread pool): starting takes tens of ms. */
  private async awaitReady(): Promise<void> {
    const timer = setTimeout(() => this.killGroup(), READY_TIMEOUT_MS);
    // An exit (Ctrl-C handled by process.exit, say) during the start wakes the read and ends the helper.
    const onExit = () => {
      this.wakeStart();
      this.killGroup();
    };
    process.once('exit', onExit);
    try {
      const readAsync = promisify(read);
      while (this.held.indexOf(NEWLINE) < 0) {
        const { bytesRead } = await readAsync(this.answers, this.answer, 0, this.answer.length, null);
        if (bytesRead === 0) break;
        this.held = Buffer.concat([this.held, this.answer.subarray(0, bytesRead)]);
      }
    } finally {
      clearTimeout(timer);
      process.off('exit', onExit);
      if (this.wake !== undefined) closeSync(this.wake);
      this.wake = undefined;
      this.starting = false;
    }
    if (this.endReason === undefined && this.readAnswer() === '{"ready":true}') return;
    // Gone before it was ready: its stderr says why (bubblewrap's own message, usually).
    // A helper that could not be spawned at all may never emit 'close': the wait is bounded.
    await new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      const timer = setTimeout(resolve, STDERR_WAIT_MS);
      this.child.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    throw this.end('could not start');
  }

  /** Marks the helper gone (the first reason wins) and closes this side's pipe ends. */
  private end(reason: string): SandboxUnavailableError {
    this.endReason ??= reason;
    if (!this.closed && !this.starting) {
      this.closed = true;
      closeSync(this.requests);
      closeSync(this.answers);
    }
    return this.failure();
  }

  /** The refusal for batches once the helper is gone, with what it said on stderr. */
  private failure(): SandboxUnavailableError {
    const said = this.stderr.trim().slice(0, 300);
    return new SandboxUnavailableError(
      `the file wall's helper for ${this.workspace} ${this.endReason ?? 'ended'}${said ? `: ${said}` : ''}`,
    );
  }
}

/** Runs a blocking read or write again when a signal interrupted it. */
function retried(call: () => number): number {
  for (;;) {
    try {
      return call();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EINTR') throw error;
    }
  }
}
