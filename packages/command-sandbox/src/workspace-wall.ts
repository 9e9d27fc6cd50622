import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { lstatSync, realpathSync } from 'node:fs';
import { posix } from 'node:path';
import {
  PROTECTED_PATHS,
  WORKSPACE_MUTATION_SOURCE,
  createDirectWorkspaceWall,
  mutationFailure,
  type WorkspaceMutationBatch,
  type WorkspaceMutationOutcome,
  type WorkspaceWall,
} from '@clawsmith/tool-protocol';
import { SandboxUnavailableError } from './errors.js';
import { findProtectedLocations } from './protected-locations.js';
import { sandboxAvailability, type SandboxMode } from './sandbox-availability.js';
import { resolveTrustedLauncher } from './trusted-launcher.js';

/** Options of {@link createWorkspaceWall}. */
export interface WorkspaceWallOptions {
  /**
   * `auto` (default): the bubblewrap wall where a trusted bubblewrap is installed (Linux), else
   * the direct one. `bubblewrap`: that wall or refuse every mutation. `off`: direct.
   */
  readonly mode?: SandboxMode;
  /** The bubblewrap program; default `bwrap` from the trusted system folders. */
  readonly bubblewrapProgram?: string;
}

// The helper reads one JSON batch per line and answers one JSON outcome per line, in order. It
// blocks in read(2) and write(2) on its inherited socket ends (created blocking for the child; it
// never touches process.stdin/stdout, which would make them non-blocking): no event loop turn, no
// stream or string-decoder machinery between a batch's arrival and its answer. A read or write
// that fails (EAGAIN included) ends the helper, and the host refuses with `sandbox_unavailable`.
const HELPER_PROGRAM = `const fs = require('fs');
const apply = ${WORKSPACE_MUTATION_SOURCE}(fs);
const send = (text) => {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(1, bytes, at);
};
const input = Buffer.allocUnsafe(65536);
let held = [];
send('{"ready":true}\\n');
for (;;) {
  let count;
  try {
    count = fs.readSync(0, input, 0, input.length, null);
  } catch (error) {
    if (error.code === 'EINTR') continue;
    throw error;
  }
  if (count === 0) process.exit(0);
  const chunk = input.subarray(0, count);
  let start = 0;
  for (let end = chunk.indexOf(10, start); end >= 0; end = chunk.indexOf(10, start)) {
    held.push(chunk.subarray(start, end));
    const line = (held.length === 1 ? held[0] : Buffer.concat(held)).toString('utf8');
    held = [];
    start = end + 1;
    send(JSON.stringify(apply(JSON.parse(line))) + '\\n');
  }
  if (start < count) held.push(Buffer.from(chunk.subarray(start)));
}`;

/** The first segments of the protected list: what a root-level protected path can be named. */
const ROOT_PROTECTED_NAMES = [...new Set(PROTECTED_PATHS.map((entry) => entry.path.split('/')[0] as string))];

/** Where the root-level protected paths of `workspace` would be, joined once per workspace. */
function rootProtectedPaths(workspace: string): string[] {
  return ROOT_PROTECTED_NAMES.map((name) => posix.join(workspace, name));
}

/**
 * Which root-level protected paths exist, as a short key: when it changes (`git init` made a
 * `.git`), the helper is started again so that its read-only binds cover the new path.
 */
function rootProtectedKey(paths: readonly string[]): string {
  // Runs before every batch: an absent name must not throw (an exception's stack costs more
  // than the lstat itself), and the paths are joined once (joining them each time cost as much
  // as the 22 lstats).
  let key = '';
  for (const path of paths) {
    try {
      const found = lstatSync(path, { throwIfNoEntry: false });
      key += found === undefined ? '-' : found.isSymbolicLink() ? 'l' : 'e';
    } catch {
      key += '-';
    }
  }
  return key;
}

/**
 * The helper's view: the host read-only, the workspace (real path) the only writable host folder
 * except the protected paths found in it when the helper starts (read-only again: a folder
 * swapped for a link into `.git` cannot make a file tool write a hook), its own /dev and /proc,
 * every namespace unshared, no capabilities, no environment.
 */
function helperArguments(workspace: string): string[] {
  const protectedBinds = findProtectedLocations(workspace).existing.flatMap((path) =>
    path === workspace || !path.startsWith(`${workspace}/`) ? [] : ['--ro-bind-try', path, path],
  );
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
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
    '--die-with-parent',
    '--cap-drop',
    'ALL',
    '--clearenv',
    '--chdir',
    '/',
    '--',
    process.execPath,
    '--max-old-space-size=256',
    '-e',
    HELPER_PROGRAM,
  ];
}

interface Waiter {
  resolve(outcome: WorkspaceMutationOutcome): void;
  reject(error: Error): void;
}

/** One long-lived helper process for one workspace. */
class WallHelper {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters: Waiter[] = [];
  private readonly ready: Promise<void>;
  private buffered = '';
  private stderr = '';
  private ended: Error | undefined;
  /** {@link rootProtectedKey} when the helper started. */
  readonly rootKey: string;
  private retiring = false;

  constructor(program: string, workspace: string, rootKey: string) {
    this.rootKey = rootKey;
    this.child = spawn(program, helperArguments(workspace), { env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    let markReady: () => void = () => undefined;
    let failReady: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failReady = reject;
    });
    this.ready.catch(() => undefined);
    let isReady = false;
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\n'); end >= 0; end = this.buffered.indexOf('\n')) {
        const line = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 1);
        if (!isReady) {
          isReady = true;
          this.hold(false);
          markReady();
          continue;
        }
        this.waiters.shift()?.resolve(JSON.parse(line) as WorkspaceMutationOutcome);
        if (this.waiters.length === 0) this.hold(false);
        if (this.waiters.length === 0 && this.retiring) this.close();
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      if (this.stderr.length < 2000) this.stderr += chunk;
    });
    const end = (reason: string) => {
      if (this.ended) return;
      this.ended = new SandboxUnavailableError(
        `the file wall's helper for ${workspace} ${reason}${this.stderr ? `: ${this.stderr.trim().slice(0, 300)}` : ''}`,
      );
      failReady(this.ended);
      for (const waiter of this.waiters.splice(0)) waiter.reject(this.ended);
      this.hold(false);
    };
    this.child.on('error', (error) => end(`could not start (${error.message})`));
    this.child.on('exit', (code, signal) => end(`ended (${signal ?? `exit ${code}`})`));
    this.child.stdin.on('error', () => undefined);
    this.hold(true);
  }

  /** An idle helper never keeps this process alive (die-with-parent ends it with us); a pending answer does. */
  private hold(pending: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr]) {
      const refs = handle as unknown as { ref?: () => void; unref?: () => void };
      if (pending) refs.ref?.();
      else refs.unref?.();
    }
  }

  get alive(): boolean {
    return this.ended === undefined;
  }

  async apply(batch: WorkspaceMutationBatch): Promise<WorkspaceMutationOutcome> {
    await this.ready;
    if (this.ended) throw this.ended;
    this.hold(true);
    const mutations = batch.mutations.map((mutation) =>
      mutation.kind === 'create'
        ? { ...mutation, content: Buffer.from(mutation.content).toString('base64') }
        : mutation,
    );
    const line = `${JSON.stringify({ ...batch, mutations })}\n`;
    return new Promise<WorkspaceMutationOutcome>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.child.stdin.write(line);
    });
  }

  /** Ends the helper once the batches it was given are answered (a newer helper takes the next ones). */
  retire(): void {
    this.retiring = true;
    if (this.waiters.length === 0) this.close();
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill('SIGKILL');
  }
}

/**
 * The file wall: every mutation of the file tools and of undo is applied by a long-lived helper
 * process per workspace, started under bubblewrap, in which the workspace is the only writable
 * host folder. The callers' path checks stay the first wall; this one holds when a command races
 * them (swapping a folder for a symbolic link between check and write): the kernel answers
 * `EROFS` for anything outside. With `auto` on a machine without a trusted bubblewrap (or not
 * Linux), and with `off`, mutations are applied in this process instead (`kind: 'none'`, the
 * documented degraded mode); a bubblewrap that cannot start the helper refuses every mutation
 * with `sandbox_unavailable`.
 */
export function createWorkspaceWall(options: WorkspaceWallOptions = {}): WorkspaceWall {
  const mode = options.mode ?? 'auto';
  const direct = createDirectWorkspaceWall();
  if (mode === 'off') return direct;
  if (
    mode === 'auto' &&
    (process.platform !== 'linux' || !resolveTrustedLauncher('bwrap', options.bubblewrapProgram).found)
  )
    return direct;
  const helpers = new Map<string, WallHelper>();
  const protectedPaths = new Map<string, string[]>();
  let program: Promise<string> | undefined;
  // A trusted bubblewrap that fails its self-test refuses every mutation (fail closed).
  const resolveProgram = () =>
    (program ??= sandboxAvailability('bubblewrap', options.bubblewrapProgram).then((availability) => {
      if (availability.available) return availability.program;
      throw new SandboxUnavailableError(availability.detail);
    }));
  return {
    kind: 'bubblewrap',
    async apply(batch) {
      const launcher = await resolveProgram();
      const workspace = realpathSync.native(batch.workspaceRoot);
      let paths = protectedPaths.get(workspace);
      if (paths === undefined) protectedPaths.set(workspace, (paths = rootProtectedPaths(workspace)));
      const rootKey = rootProtectedKey(paths);
      let helper = helpers.get(workspace);
      if (!helper?.alive || helper.rootKey !== rootKey) {
        helper?.retire();
        helper = new WallHelper(launcher, workspace, rootKey);
        helpers.set(workspace, helper);
      }
      const outcome = await helper.apply(batch);
      if (!outcome.ok) throw mutationFailure(outcome);
    },
    async close() {
      for (const helper of helpers.values()) helper.close();
      helpers.clear();
    },
  };
}
