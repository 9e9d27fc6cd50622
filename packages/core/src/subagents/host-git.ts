import { execFile } from 'node:child_process';
import { resolveTrustedLauncher, TRUSTED_LAUNCHER_FOLDERS } from '@clawsmith/command-sandbox';
import { ClawsmithError } from '@clawsmith/tool-protocol';

/**
 * Settings on every git call, above any configuration file: nothing in a repository (or its
 * worktree) makes this git run code. Hooks go nowhere, the file-system monitor is off, no pager,
 * no signing program, no transport at all, and a bare repository planted in the workspace is
 * never discovered. External diff drivers and text conversion are off per `diff` call.
 */
const SAFE_SETTINGS = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.sshCommand=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'protocol.allow=never',
  'safe.bareRepository=explicit',
  'submodule.recurse=false',
  'user.name=clawsmith',
  'user.email=clawsmith@localhost',
].flatMap((setting) => ['-c', setting]);

/** How long one git call may take. */
const GIT_TIMEOUT_MS = 120_000;
/** Output kept from one git call (a patch can be large; the caller bounds what it shows). */
const GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

/** What one git call printed. */
export interface GitOutput {
  readonly stdout: string;
  readonly exitCode: number;
}

/**
 * A minimal environment: no `GIT_*` variable of the parent (`GIT_DIR`, `GIT_CONFIG_*`,
 * `GIT_EXEC_PATH` would redirect or reconfigure git), no system configuration, no prompts, and a
 * `PATH` of the trusted system folders only (never the caller's, which under `npm run` or `npx`
 * starts with `<workspace>/node_modules/.bin`, where any command can plant a program).
 * `HOME` stays, so the person's own `~/.gitconfig` (`safe.directory`, filters) still applies.
 */
function gitEnvironment(): NodeJS.ProcessEnv {
  return {
    PATH: TRUSTED_LAUNCHER_FOLDERS.join(':'),
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
  };
}

/**
 * Runs the host's git with {@link SAFE_SETTINGS} in `cwd`, without a shell. Resolves with the
 * exit code when it is in `allowedExitCodes` (default 0); otherwise rejects with `git_failed`
 * (its message ends with git's own), `git_unavailable` when there is no git, `git_timeout`, or
 * `cancelled` when `signal` aborts.
 */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: { signal?: AbortSignal; allowedExitCodes?: readonly number[] } = {},
): Promise<GitOutput> {
  const allowed = options.allowedExitCodes ?? [0];
  // Taken from root-owned system folders only, like the sandbox launcher: a `git` planted on PATH
  // (a workspace's node_modules/.bin) would run on the host, outside every sandbox.
  const git = resolveTrustedLauncher('git');
  if (!git.found)
    return Promise.reject(new ClawsmithError('git_unavailable', `No trusted git on this machine: ${git.detail}.`));
  return new Promise((resolve, reject) => {
    execFile(
      git.program,
      [...SAFE_SETTINGS, ...args],
      {
        cwd,
        env: gitEnvironment(),
        encoding: 'utf8',
        maxBuffer: GIT_OUTPUT_BYTES,
        timeout: GIT_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (allowed.includes(exitCode)) return resolve({ stdout, exitCode });
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean }) | null;
        if (failure?.name === 'AbortError' || options.signal?.aborted)
          return reject(new ClawsmithError('cancelled', `git ${args[0]} was cancelled.`));
        if (failure?.code === 'ENOENT')
          return reject(new ClawsmithError('git_unavailable', `git could not be started from ${git.program}.`));
        if (failure?.killed)
          return reject(
            new ClawsmithError(
              'git_timeout',
              `git ${args[0]} took longer than ${GIT_TIMEOUT_MS / 1000} s and was stopped.`,
            ),
          );
        reject(
          new ClawsmithError(
            'git_failed',
            `git ${args[0]} failed (exit ${exitCode}): ${String(stderr).trim().slice(0, 2_000) || 'no message'}`,
          ),
        );
      },
    );
  });
}
